// `cpr-conformance vectors verify`: runs the vector files against an
// implementation and reports every case. With no target: the reference's own
// functions for the pure kinds, and the sequences against the reference started
// on loopback over HTTPS, trusted through its CA. With a target (URL or target
// file): the sequences against it; the pure kinds are not applicable to a remote
// target and are reported so, never passed.
import { readFileSync, readdirSync } from 'node:fs';
import { createHttpRole } from '../adapters/http.ts';
import type { HttpRole } from '../adapters/types.ts';
import { HarnessError } from '../errors.ts';
import { discoverCapabilities } from '../target/control.ts';
import { loadTargetFile } from '../target/load.ts';
import { openTarget, targetFromUrl } from '../target/target.ts';
import { leaseHolder, leaseRoles } from '../runner/lease.ts';
import { startReference } from '../../reference/start.ts';
import { PURE_CHECKERS } from './check/pure.ts';
import { VECTORS_DIR } from './generate.ts';
import { SEQUENCE_KINDS, VECTOR_KINDS, fileNameOf, type Result, type VectorFile, type VectorKind } from './model.ts';
import { schemaErrors } from './schema.ts';
import { runSequence } from './sequence.ts';

export type VerifyTarget =
  | { readonly kind: 'reference' }
  | { readonly kind: 'url'; readonly url: string; readonly caFile?: string }
  /** `env`: where the file's control.token_env names are read (the command's environment). */
  | { readonly kind: 'file'; readonly path: string; readonly env: Readonly<Record<string, string | undefined>> };

export interface VerifyOptions {
  readonly target?: VerifyTarget;
  /** Only these kinds; all when absent or empty. */
  readonly kinds?: readonly VectorKind[];
  /** Where the vector files are; default vectors/. */
  readonly dir?: URL;
  /** Called with each case as it is decided. */
  readonly onCase?: (report: CaseReport) => void;
  /** Wait up to this long for the target's test-control lease when another client holds it (otherwise HARNESS_TARGET_BUSY). */
  readonly leaseWaitSeconds?: number;
  /** Hears what the user should know about the lease (a wait, a lease lost). */
  readonly onWarning?: (text: string) => void;
}

export type CaseStatus = 'pass' | 'fail' | 'skipped' | 'not-applicable' | 'error';

export interface CaseReport {
  readonly file: string;
  readonly tcId: number;
  readonly comment: string;
  readonly expected: Result;
  /** The verdict the implementation reached ('valid' for a sequence answered as expected), or none. */
  readonly got: 'valid' | 'invalid' | 'none';
  readonly status: CaseStatus;
  readonly detail?: string;
}

interface VerifyReport {
  readonly target: string;
  readonly cases: readonly CaseReport[];
  readonly counts: Readonly<Record<CaseStatus, number>>;
  /** 0 every case matched, 1 a mismatch, 2 a harness error (an unreachable target, a defective vector). */
  readonly exitCode: 0 | 1 | 2;
}

/** Reads and schema-checks a vector file; a bad file is a harness error, never a verdict. */
function loadVectorFile(kind: VectorKind, dir: URL = VECTORS_DIR): VectorFile {
  const name = fileNameOf(kind);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `vectors/${name} cannot be read: ${(error as Error).message}`, 'run: npx cpr-conformance vectors generate');
  }
  const errors = schemaErrors(data);
  if (errors.length > 0) throw new HarnessError('CONFIG_INVALID', `vectors/${name} does not match vector.schema.json: ${errors.slice(0, 5).join('; ')}`);
  if ((data as VectorFile).kind !== kind) throw new HarnessError('CONFIG_INVALID', `vectors/${name} declares kind ${(data as VectorFile).kind}`);
  return data as VectorFile;
}

/** The vector files present, in kind order. */
function availableKinds(dir: URL = VECTORS_DIR): VectorKind[] {
  const present = new Set(readdirSync(dir));
  return VECTOR_KINDS.filter((k) => present.has(fileNameOf(k)));
}

interface HttpSide {
  readonly name: string;
  readonly roles: { readonly payee?: HttpRole; readonly operator?: HttpRole };
  readonly capabilities: { readonly payee: ReadonlySet<string>; readonly operator: ReadonlySet<string> };
  close(): Promise<void>;
}

/** The reference on loopback: one HTTPS origin for payee and operator, trusted through its own CA. */
async function referenceSide(): Promise<HttpSide> {
  const ref = await startReference({ port: 0, plaintextPort: null });
  const role = createHttpRole({ baseUrl: ref.url, ca: ref.tls.ca });
  try {
    const { capabilities } = await discoverCapabilities(role, 3000);
    return {
      name: `the embedded reference (${ref.url})`,
      roles: { payee: role, operator: role },
      capabilities: { payee: capabilities, operator: capabilities },
      close: async () => {
        await role.close();
        await ref.close();
      },
    };
  } catch (error) {
    await role.close();
    await ref.close();
    throw error;
  }
}

async function remoteSide(target: Exclude<VerifyTarget, { kind: 'reference' }>): Promise<HttpSide> {
  const opened = target.kind === 'url' ? await targetFromUrl(target.url, target.caFile !== undefined ? { caFile: target.caFile } : {}) : await openTarget(loadTargetFile(target.path, target.env));
  return {
    name: opened.name,
    roles: { ...(opened.payee ? { payee: opened.payee } : {}), ...(opened.operator ? { operator: opened.operator } : {}) },
    capabilities: opened.capabilities,
    close: () => opened.close(),
  };
}

/** The side with its roles holding the lease of each implementation that offers one; closing it releases them first. */
async function leased(side: HttpSide, options: VerifyOptions): Promise<HttpSide> {
  const held = await leaseRoles(side.roles, (name) => side.capabilities[name].has('lease'), {
    holder: leaseHolder('vectors verify'),
    ...(options.leaseWaitSeconds !== undefined ? { waitSeconds: options.leaseWaitSeconds } : {}),
    ...(options.onWarning !== undefined ? { say: options.onWarning } : {}),
  });
  return {
    ...side,
    roles: held.roles,
    close: async () => {
      await held.release();
      await side.close();
    },
  };
}

function tally(cases: readonly CaseReport[]): Record<CaseStatus, number> {
  const counts: Record<CaseStatus, number> = { pass: 0, fail: 0, skipped: 0, 'not-applicable': 0, error: 0 };
  for (const c of cases) counts[c.status]++;
  return counts;
}

/** Pass when the verdict is the expected one (acceptable: either) and nothing else differs. */
function judge(expected: Result, got: 'valid' | 'invalid', problem: string | undefined): CaseStatus {
  if (problem !== undefined) return 'fail';
  return expected === 'acceptable' || expected === got ? 'pass' : 'fail';
}

export async function verifyVectors(options: VerifyOptions = {}): Promise<VerifyReport> {
  const dir = options.dir ?? VECTORS_DIR;
  const target = options.target ?? { kind: 'reference' };
  const kinds = options.kinds && options.kinds.length > 0 ? options.kinds : availableKinds(dir);
  const files = kinds.map((kind) => ({ kind, file: loadVectorFile(kind, dir) }));
  const cases: CaseReport[] = [];
  const record = (report: CaseReport) => {
    cases.push(report);
    options.onCase?.(report);
  };
  const remote = target.kind !== 'reference';

  for (const { kind, file } of files) {
    if (SEQUENCE_KINDS.includes(kind)) continue;
    const check = PURE_CHECKERS[kind]!;
    for (const group of file.testGroups) {
      for (const test of group.tests) {
        const base = { file: fileNameOf(kind), tcId: test.tcId, comment: test.comment, expected: test.result };
        if (remote) {
          record({ ...base, got: 'none', status: 'not-applicable', detail: 'not applicable to a remote target: a pure kind checks a library, so run it against your own code from the JSON (vectors/README.md)' });
          continue;
        }
        try {
          const verdict = await check(test, group);
          record({ ...base, got: verdict.got, status: judge(test.result, verdict.got, verdict.problem), ...(verdict.problem ?? verdict.detail ? { detail: verdict.problem ?? verdict.detail } : {}) });
        } catch (error) {
          record({ ...base, got: 'none', status: 'error', detail: `the check threw: ${(error as Error)?.stack ?? String(error)}` });
        }
      }
    }
  }

  const sequences = files.filter(({ kind }) => SEQUENCE_KINDS.includes(kind));
  if (sequences.length > 0) {
    // The sequences move the clock: they run holding the target's test-control lease (PROFILE.md §12).
    const opened = target.kind === 'reference' ? await referenceSide() : await remoteSide(target);
    const side = await leased(opened, options).catch(async (error: unknown) => {
      await opened.close();
      throw error;
    });
    try {
      for (const { kind, file } of sequences) {
        for (const group of file.testGroups) {
          for (const test of group.tests) {
            const roleName = test['role'] as 'payee' | 'operator';
            const outcome = await runSequence(test, side.roles[roleName], side.capabilities[roleName]);
            const base = { file: fileNameOf(kind), tcId: test.tcId, comment: test.comment, expected: test.result };
            switch (outcome.status) {
              case 'passed':
                record({ ...base, got: 'valid', status: judge(test.result, 'valid', undefined) });
                break;
              case 'failed':
                record({ ...base, got: 'invalid', status: judge(test.result, 'invalid', undefined), detail: outcome.detail });
                break;
              case 'skipped':
                record({ ...base, got: 'none', status: 'skipped', detail: outcome.detail });
                break;
              case 'error':
                record({ ...base, got: 'none', status: 'error', detail: outcome.detail });
                break;
            }
          }
        }
      }
    } finally {
      await side.close();
    }
  }

  const counts = tally(cases);
  const exitCode = counts.error > 0 ? 2 : counts.fail > 0 ? 1 : 0;
  const name = target.kind === 'reference' ? 'the reference implementation' : target.kind === 'url' ? target.url : target.path;
  return { target: name, cases, counts, exitCode };
}
