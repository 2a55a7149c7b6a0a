// The authority a request is for, as this server resolves it: the Host header
// when it names this server (one of its names, in any letter case, on any port:
// a front server of its own may listen on another), else the server's own
// primary authority. A Host the client writes is no proof of which host it
// meant (PROFILE.md §2.4: a signature made for another host identifies
// nobody), so a request naming another host is judged as a request to this
// server, never as one to the host it names.
import type { Handler } from './types.ts';

/** The host of a `host[:port]` authority, lower case, an IPv6 address in brackets. */
function hostOf(authority: string): string {
  const host = /^\[[^\]]*\]/.exec(authority)?.[0] ?? authority.replace(/:\d*$/, '');
  return host.toLowerCase();
}

/** `handler` with `authority` resolved against `names` (host names and addresses, an IPv6 address in brackets); `primary` is the server's own authority. */
export function withOwnAuthority(primary: string, names: readonly string[], handler: Handler): Handler {
  const own = new Set([primary, ...names].map(hostOf));
  return (request) => handler({ ...request, authority: own.has(hostOf(request.authority)) ? request.authority : primary });
}
