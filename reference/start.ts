// Starts the reference implementation of all three roles on loopback: one HTTPS
// origin (payee, operator, test control) with a certificate from a throw-away CA,
// and a plaintext listener that never serves a CPR. Served under a base path,
// every route of every role is under it: the base URL is `https://host:port/path`
// and each path the profile names is relative to it (PROFILE.md §8.1, §12).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpointProblem, normalizeUri } from '../profile/cpr/index.ts';
import { problemResponse } from './http/respond.ts';
import { Clock } from './clock.ts';
import { createControlHandler } from './control.ts';
import { listen, MAX_BODY_BYTES, type Listening } from './http/server.ts';
import { withOwnAuthority } from './http/authority.ts';
import type { Handler } from './http/types.ts';
import { faultsFor, SwitchRecorder, type MutantName } from './mutants.ts';
import { createOperator, type Operator, type Policy } from './operator/index.ts';
import { createPayee, type Payee } from './payee/index.ts';
import { createPlaintextRouter, createRouter } from './router.ts';
import { createTlsMaterial, type TlsMaterial } from './tls.ts';

export interface ReferenceOptions {
  /** Address to listen on (an IPv4 or IPv6 address, or a name); default 127.0.0.1. The certificate names it too. */
  readonly host?: string;
  /**
   * A path every route is served under, e.g. `/shops/acme%20gmbh` (percent-encoded
   * as in a URL, no trailing slash); the root when absent. The base URL the
   * payee advertises, and the `endpoint` of its URIs, end with it.
   */
  readonly basePath?: string;
  /** HTTPS port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Plaintext port; 0 picks a free one, null disables the listener. */
  readonly plaintextPort?: number | null;
  readonly freezeClock?: boolean;
  readonly policy?: Partial<Policy>;
  readonly tokenLifetimeSeconds?: number;
  readonly requestValiditySeconds?: number;
  readonly controlEnabled?: boolean;
  readonly controlToken?: string;
  /** Offer the test-control lease (PROFILE.md §12); default true. Without it any client may move the clock at any time. */
  readonly lease?: boolean;
  /** Switch one fault on by name (reference/mutants.ts): a deliberately non-conformant reference. Unknown names throw. */
  readonly mutant?: string;
  /**
   * Derive the Operator's signing key and its pack ids from this text instead of
   * randomness: two references started with one seed give the same answers to the
   * same requests (the benchmark replays a recording this way).
   */
  readonly seed?: string;
  /**
   * No fault on, but every switch consulted is noted (SwitchRecorder): selftest
   * learns from it which tests reach which mutant. Not with `mutant`.
   */
  readonly recordSwitches?: boolean;
}

export interface RunningReference {
  /** The HTTPS base URL of every role, with the base path. */
  readonly url: string;
  readonly plaintextUrl: string | undefined;
  readonly tls: TlsMaterial;
  /** A file holding the CA certificate to trust (removed on close). */
  readonly caFile: string;
  readonly clock: Clock;
  readonly payee: Payee;
  readonly operator: Operator;
  /** The fault switched on, if any; a paying application meant to share it needs it too (reference/adapter.ts `settings.mutant`). */
  readonly mutant: MutantName | undefined;
  /** With `recordSwitches`: the switches consulted so far. */
  readonly switches: SwitchRecorder | undefined;
  close(): Promise<void>;
}

/** `tls`: the material to serve with (a twin takes its reference's), else a CA of its own, made here. */
export async function startReference(options: ReferenceOptions = {}, given?: { readonly tls?: TlsMaterial }): Promise<RunningReference> {
  const host = options.host ?? '127.0.0.1';
  const basePath = checkBasePath(options.basePath ?? '');
  if (options.recordSwitches === true && options.mutant !== undefined) throw new Error('recordSwitches notes the switches of the reference with no fault on: not with a mutant');
  const switches = options.recordSwitches === true ? new SwitchRecorder() : undefined;
  const faults = switches?.faults ?? faultsFor(options.mutant);
  const clock = new Clock();
  if (options.freezeClock) clock.freeze();
  // Built before any port is bound: a bad policy fails without leaving listeners open.
  const operator = createOperator({ clock, faults, ...(options.policy ? { policy: options.policy } : {}), ...(options.seed !== undefined ? seeded(options.seed) : {}) });
  const tls = given?.tls ?? (await createTlsMaterial(certificateNames(host)));
  const dir = mkdtempSync(join(tmpdir(), 'cpr-reference-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, tls.ca);

  // The payee needs its own base URL, known only once the port is bound.
  let router: Handler | undefined;
  let plainRouter: Handler | undefined;
  // The server's own cap never undercuts the policy's max_body_bytes: the Operator answers 413 at its limit (PROFILE.md §1).
  // (Mutant op-body-limit-from-content-length: a front server that takes up to 1 MiB and leaves the limit to the Operator.)
  const maxBodyBytes = Math.max(faults.has('op-body-limit-from-content-length') ? 1_048_576 : MAX_BODY_BYTES, operator.policy.max_body_bytes);
  const secure = await listen((request) => router!(request), { host, port: options.port ?? 0, tls, maxBodyBytes });
  let plain: Listening | undefined;
  if (options.plaintextPort !== null) {
    try {
      plain = await listen((request) => plainRouter!(request), { host, port: options.plaintextPort ?? 0 });
    } catch (error) {
      await secure.close();
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }
  const payee = createPayee({
    clock,
    faults,
    baseUrl: secure.url + basePath,
    ...(plain ? { plaintextBaseUrl: plain.url + basePath } : {}),
    ...(options.tokenLifetimeSeconds !== undefined ? { tokenLifetimeSeconds: options.tokenLifetimeSeconds } : {}),
    ...(options.requestValiditySeconds !== undefined ? { requestValiditySeconds: options.requestValiditySeconds } : {}),
  });
  plainRouter = underBasePath(basePath, createPlaintextRouter(payee.handler));
  // Its own names are those its certificate gives; the URL served under is its primary authority.
  const names = certificateNames(host);
  router = withOwnAuthority(
    new URL(secure.url).host,
    [...names.dns, ...names.ip.map((n) => (isIP(n) === 6 ? `[${n}]` : n))],
    underBasePath(
      basePath,
      createRouter({
        payee: payee.handler,
        operator: operator.serve,
        control: createControlHandler(clock, { lease: options.lease !== false, faults }),
        controlEnabled: options.controlEnabled ?? true,
        ...(options.controlToken !== undefined ? { controlToken: options.controlToken } : {}),
      }),
    ),
    faults,
  );

  return {
    url: secure.url + basePath,
    plaintextUrl: plain === undefined ? undefined : plain.url + basePath,
    tls,
    caFile,
    clock,
    payee,
    operator,
    mutant: faults.active,
    switches,
    async close() {
      await Promise.all([secure.close(), plain?.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The Operator's seeds, each its own SHA-256 of the text under a distinct label. */
function seeded(seed: string): { signingSeed: Uint8Array; idSeed: Uint8Array } {
  const derive = (label: string) => new Uint8Array(createHash('sha256').update(`cpr-conformance reference ${label}\n${seed}`).digest());
  return { signingSeed: derive('signing key'), idSeed: derive('pack ids') };
}

/** A base path as a URL writes it: '' (or '/') or `/segment...`, no trailing slash, query or fragment (PROFILE.md §8.1). Throws TypeError otherwise. */
function checkBasePath(path: string): string {
  if (path === '/') return '';
  const problem = path === '' ? undefined : !path.startsWith('/') ? 'it must start with "/"' : endpointProblem(`https://reference.invalid${path}`);
  if (problem !== undefined) throw new TypeError(`basePath ${JSON.stringify(path)}: ${problem.replace(/^the endpoint /, '')}`);
  return path;
}

/** The path a request names, normalised as a URI (RFC 3986 §6.2.2: `%7e` is `~`, `%2f` is `%2F`). */
function normalPath(path: string): string {
  const origin = 'https://reference.invalid';
  return normalizeUri(origin + path).slice(origin.length);
}

/** Routes only requests under the base path, with the base path taken off; anything else is NOT_FOUND. */
function underBasePath(basePath: string, handler: Handler): Handler {
  if (basePath === '') return handler;
  const prefix = normalPath(basePath);
  return (request) => {
    const path = normalPath(request.path);
    if (!path.startsWith(`${prefix}/`)) return problemResponse('NOT_FOUND', `nothing is served at ${request.path}: this implementation is served under ${basePath}`);
    return handler({ ...request, path: path.slice(prefix.length) });
  };
}

/** The certificate covers loopback by name and address (localhost, 127.0.0.1, ::1) and the address listened on. */
function certificateNames(host: string): { dns: string[]; ip: string[] } {
  const dns = ['localhost'];
  const ip = ['127.0.0.1', '::1'];
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 0) dns.push(bare);
  else ip.push(bare);
  return { dns: [...new Set(dns)], ip: [...new Set(ip)] };
}
