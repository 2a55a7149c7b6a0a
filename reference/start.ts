// Starts the reference implementation of all three roles on loopback: one HTTPS
// origin (payee, operator, test control) with a certificate from a throw-away CA,
// and a plaintext listener that never serves a CPR.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from './clock.ts';
import { createControlHandler } from './control.ts';
import { listen, MAX_BODY_BYTES, type Listening } from './http/server.ts';
import type { Handler } from './http/types.ts';
import { faultsFor, type MutantName } from './mutants.ts';
import { createOperator, type Operator, type Policy } from './operator/index.ts';
import { createPayee, type Payee } from './payee/index.ts';
import { createPlaintextRouter, createRouter } from './router.ts';
import { createTlsMaterial, type TlsMaterial } from './tls.ts';

export interface ReferenceOptions {
  readonly host?: string;
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
}

export interface RunningReference {
  /** The HTTPS base URL of every role. */
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
  close(): Promise<void>;
}

export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  const host = options.host ?? '127.0.0.1';
  const faults = faultsFor(options.mutant);
  const clock = new Clock();
  if (options.freezeClock) clock.freeze();
  // Built before any port is bound: a bad policy fails without leaving listeners open.
  const operator = createOperator({ clock, faults, ...(options.policy ? { policy: options.policy } : {}), ...(options.seed !== undefined ? seeded(options.seed) : {}) });
  const tls = await createTlsMaterial();
  const dir = mkdtempSync(join(tmpdir(), 'cpr-reference-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, tls.ca);

  // The payee needs its own base URL, known only once the port is bound.
  let router: Handler | undefined;
  let plainRouter: Handler | undefined;
  // The server's own cap never undercuts the policy's max_body_bytes: the Operator answers 413 at its limit (PROFILE.md §1).
  const maxBodyBytes = Math.max(MAX_BODY_BYTES, operator.policy.max_body_bytes);
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
    baseUrl: secure.url,
    ...(plain ? { plaintextBaseUrl: plain.url } : {}),
    ...(options.tokenLifetimeSeconds !== undefined ? { tokenLifetimeSeconds: options.tokenLifetimeSeconds } : {}),
    ...(options.requestValiditySeconds !== undefined ? { requestValiditySeconds: options.requestValiditySeconds } : {}),
  });
  plainRouter = createPlaintextRouter(payee.handler);
  router = createRouter({
    payee: payee.handler,
    operator: operator.serve,
    control: createControlHandler(clock, { lease: options.lease !== false }),
    controlEnabled: options.controlEnabled ?? true,
    ...(options.controlToken !== undefined ? { controlToken: options.controlToken } : {}),
  });

  return {
    url: secure.url,
    plaintextUrl: plain?.url,
    tls,
    caFile,
    clock,
    payee,
    operator,
    mutant: faults.active,
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
