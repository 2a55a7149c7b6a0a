// A fuzzing campaign of a paying application: model runs of generated reads
// and derivations (commands.ts), each result judged by the oracle (the
// profile's own validator, oracle.ts), token URIs answered by the harness's
// retrieval stub; explored, shrunk, replayed and reduced by the campaign loop
// every role shares (../engine.ts); a finding written as a crash file and a
// regression scenario of app-read, app-derive, stub-serve and stub-log steps.
import type { PayingAppRole } from '../../adapters/types.ts';
import type { ScenarioTarget } from '../../scenarios/context.ts';
import type { RetrievalStub } from '../../stub/retrieval-stub.ts';
import { reproduces, toHarnessError, type CampaignResult } from '../campaign.ts';
import { crashFault, crashRole, type CrashEnvelope } from '../crash.ts';
import { runEngine, type CampaignRole, type RoleCampaignOptions, type Failing, type Found, type RunRecord } from '../engine.ts';
import { writeFinding, type FoundFailure } from '../findings.ts';
import { Mismatch } from '../mismatch.ts';
import { scriptOf } from '../payee/campaign.ts';
import { reduceSequence } from '../reduce.ts';
import { regressionDocument } from '../regression.ts';
import { describe } from '../spec.ts';
import { appCommands, type DocumentSource } from './commands.ts';
import { AppWorld, execute, type AppContext } from './execute.ts';
import { documentOf } from './oracle.ts';
import { APP_COMMAND_KINDS, type AppCommand, type AppSetup, type Document } from './spec.ts';
import { validateCpr } from '../../../profile/cpr/index.ts';

export interface AppCampaignOptions extends RoleCampaignOptions {
  readonly app: PayingAppRole;
  /** The retrieval stub the application trusts (harness/stub/). */
  readonly stub: RetrievalStub;
  /** Where documents come from (commands.ts). @defaultValue 'field-classes' */
  readonly documents?: DocumentSource;
}

export interface AppFailing extends Failing {
  readonly setup: AppSetup;
  readonly commands: readonly AppCommand[];
  readonly world: AppWorld;
}

export async function runAppCampaign(options: AppCampaignOptions): Promise<CampaignResult> {
  const context: AppContext = { app: options.app, stub: options.stub, calls: 0 };
  const { found, ...result } = await runEngine(options, appRole(context, options.maxCommands ?? 8, options.documents ?? 'field-classes'));
  return { ...result, ...(found ? { failure: await writeFindings(options, found) } : {}) };
}

function appRole(context: AppContext, maxCommands: number, documents: DocumentSource): CampaignRole<AppCommand[], AppFailing> {
  const run = (_setup: AppSetup, commands: readonly AppCommand[]) => runOnce(context, commands, () => false);
  return {
    input: appCommands(maxCommands, documents, context.stub.ipv6),
    run: (commands, halted) => runOnce(context, commands, halted),
    reduce: (failing, attempts, onAttempt) => reduceSequence({ run, simpler, leaveOut: () => [] }, failing, attempts, onAttempt),
    commands: (failing) => failing.commands.map(describe),
    harnessError: (error) => toHarnessError(error, 'paying application'),
    ops: () => context.calls,
  };
}

/** One model run: each command in order, judged as it comes; the run's files removed after. */
export async function runOnce(context: AppContext, commands: readonly AppCommand[], halted: () => boolean): Promise<RunRecord<AppFailing> & { readonly world: AppWorld }> {
  const world = new AppWorld(context);
  try {
    for (const spec of commands) {
      if (halted()) break;
      world.executed.push(spec);
      await execute(spec, world);
    }
    return { world };
  } catch (error) {
    const failing = error instanceof Mismatch ? { setup: {}, commands: [...world.executed], world, detail: error.detail, message: error.message } : undefined;
    return { world, error, ...(failing ? { failing } : {}) };
  } finally {
    world.close();
  }
}

/** Simpler forms of a command: the odd parts one at a time made ordinary, then the document with fewer members. */
function simpler(spec: AppCommand): AppCommand[] {
  if (spec.kind === 'derive') {
    const { payer_amount: _a, supported_rails: _r, ...context } = spec.context;
    return [...(isDeep(context, spec.context) ? [] : [{ ...spec, context }]), ...leaner({ drawn: spec.doc, draws: [] }).map((doc) => ({ ...spec, doc }))];
  }
  const out: AppCommand[] = [];
  const documents = leaner(spec.doc).map((doc) => ({ ...spec.doc, [documentKey(spec.doc)]: doc }) as Document);
  if (spec.serving !== undefined && spec.serving !== 'ok') out.push({ ...spec, serving: 'ok' });
  if (spec.encoding !== 'plain') out.push({ ...spec, encoding: 'plain' });
  if (spec.dating !== 'as-generated') out.push({ ...spec, dating: 'as-generated' });
  if (spec.endpoint && (spec.endpoint.basePath !== '' || spec.endpoint.extraQuery !== undefined)) out.push({ ...spec, endpoint: { host: spec.endpoint.host, basePath: '', ...(spec.endpoint.plaintext ? { plaintext: true } : {}) } });
  if (spec.endpoint && spec.endpoint.host !== '127.0.0.1') out.push({ ...spec, endpoint: { ...spec.endpoint, host: '127.0.0.1' } });
  if (spec.channel !== 'object' && spec.encoding === 'plain' && spec.serving === undefined) out.push({ ...spec, channel: 'object' });
  return [...out, ...documents.map((doc) => ({ ...spec, doc }))];
}

/** The member of a command's document that holds the JSON value. */
const documentKey = (doc: Document): 'valid' | 'broken' | 'drawn' => ('valid' in doc ? 'valid' : 'broken' in doc ? 'broken' : 'drawn');

/** The rules the validator finds broken, in a canonical order ('' for a valid document). */
function verdict(doc: unknown): string {
  const validation = validateCpr(doc);
  return validation.ok ? '' : [...new Set(validation.violations.map((v) => v.requirement))].sort().join(' ');
}

/**
 * The document without some of its members (at the top and one level down):
 * all that can go at once first, then each alone. A member can go when the
 * oracle's verdict stays: a valid document stays valid, a broken one still
 * breaks its rule, a drawn one breaks the same rules (or none).
 */
function leaner(command: Document): unknown[] {
  const doc = documentOf(command);
  const rule = 'rule' in command ? command.rule : undefined;
  const before = 'drawn' in command ? verdict(doc) : undefined;
  const same = (candidate: unknown) => {
    if (before !== undefined) return verdict(candidate) === before;
    const validation = validateCpr(candidate);
    return rule === undefined ? validation.ok : !validation.ok && validation.violations.some((v) => v.requirement === rule);
  };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(doc)) return [];
  const without = (value: Record<string, unknown>, path: readonly string[]): Record<string, unknown> => {
    const [head, ...rest] = path;
    const { [head!]: inner, ...others } = value;
    return rest.length === 0 ? others : { ...others, [head!]: without(inner as Record<string, unknown>, rest) };
  };
  const paths = Object.entries(doc).flatMap(([k, v]) => [[k], ...(isObject(v) ? Object.keys(v).map((inner) => [k, inner]) : [])]);
  const removable = paths.filter((path) => same(without(doc, path)));
  const all = removable.filter((path) => path.length === 1).reduce((d, path) => without(d, path), doc);
  const out = [...removable.map((path) => without(doc, path)), ...shorter(doc).filter(same)];
  return removable.length > 1 && same(all) && !isDeep(all, doc) ? [all, ...out] : out;
}

/** The document with one of its long strings (over 8 code points, anywhere) cut to half its code points, each in turn. */
function shorter(value: unknown): unknown[] {
  if (typeof value === 'string') {
    const points = [...value];
    return points.length > 8 ? [points.slice(0, Math.ceil(points.length / 2)).join('')] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => shorter(item).map((cut) => value.map((v, j) => (j === i ? cut : v))));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => shorter(v).map((cut) => ({ ...value, [k]: cut })));
  }
  return [];
}

function isDeep(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function writeFindings(options: AppCampaignOptions, found: Found<AppFailing>): Promise<FoundFailure> {
  const { world } = found.failing;
  return writeFinding(found, options, {
    reproduce: `cpr-conformance fuzz --role paying-app --seed ${options.seed}`,
    commands: world.executed.map(describe),
    crash: { role: 'paying-app', setup: {}, commands: world.executed, exchanges: world.exchanges },
    regression: (story) => regressionDocument({ ...story, ...scriptOf(world, 'paying-app') }),
    reproduces: (scenario) => reproduces(appTarget(options.app, options.stub), options.app.description, scenario),
  });
}

function appTarget(app: PayingAppRole, stub: RetrievalStub): ScenarioTarget {
  return {
    httpRole: () => undefined,
    payingApp: app,
    capabilities: () => new Set(),
    adapterKind: (role) => (role === 'paying-app' ? app.kind : undefined),
    credential: () => undefined,
    stub,
  };
}

/** The paying-app fuzzer's crash file. */
export interface AppCrashFile extends CrashEnvelope {
  readonly role: 'paying-app';
  readonly setup: AppSetup;
  readonly commands: readonly AppCommand[];
}

/** The paying application's parts of a crash file checked. */
export function appCrash(crash: CrashEnvelope, file: string): AppCrashFile {
  const bad = crashFault(file);
  if (crashRole(crash) !== 'paying-app') throw bad(`it is a finding of the ${crashRole(crash)} fuzzer, not the paying application's`);
  for (const [i, c] of crash.commands.entries()) {
    if (!c || typeof c !== 'object' || !APP_COMMAND_KINDS.includes((c as AppCommand).kind)) throw bad(`commands[${i}] is not a paying-app fuzzer command`);
  }
  return crash as AppCrashFile;
}

/** Runs a crash file's commands once more. */
export async function replayAppCrash(app: PayingAppRole, stub: RetrievalStub, crash: AppCrashFile): Promise<{ readonly fixed: boolean; readonly detail?: Failing['detail']; readonly message?: string }> {
  const record = await runOnce({ app, stub, calls: 0 }, crash.commands, () => false);
  if (record.error === undefined) return { fixed: true };
  if (record.error instanceof Mismatch) return { fixed: false, detail: record.error.detail, message: record.error.message };
  throw toHarnessError(record.error, 'paying application');
}

