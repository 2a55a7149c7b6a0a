// A fuzzing campaign of a payee system: model runs of generated commands
// (commands.ts) against fresh state, each answer judged by the model
// (model.ts); explored, shrunk, replayed and reduced by the campaign loop every
// role shares (../engine.ts); a finding written as a crash file and a
// regression scenario of payee steps (create-request, http, parallel, clock,
// fulfil) with the model's predictions as checks.
import fc from 'fast-check';
import type { HttpRole } from '../../adapters/types.ts';
import type { ScenarioTarget } from '../../scenarios/context.ts';
import { releaseClock, reproduces, toHarnessError, type CampaignResult } from '../campaign.ts';
import { crashFault, crashRole, type CrashEnvelope } from '../crash.ts';
import { runEngine, type CampaignRole, type RoleCampaignOptions, type Failing, type Found, type RunRecord } from '../engine.ts';
import { writeFinding, type FoundFailure } from '../findings.ts';
import { Mismatch } from '../mismatch.ts';
import { reduceSequence } from '../reduce.ts';
import { regressionDocument } from '../regression.ts';
import { describe } from '../spec.ts';
import type { ScriptStep } from '../world.ts';
import { payeeCommands, payeeSetup } from './commands.ts';
import { PAYEE_EXECUTORS } from './execute.ts';
import { PAYEE_COMMAND_KINDS, type PayeeCommand, type PayeeSetup } from './spec.ts';
import { openPayeeContext, PayeeWorld, type PayeeConfig, type PayeeContext } from './world.ts';

export interface PayeeCampaignOptions extends RoleCampaignOptions {
  readonly payee: HttpRole;
  /** The payee's test-control capabilities (fulfil is used when offered). */
  readonly capabilities: ReadonlySet<string>;
}

/** A failing payee run: its world, what failed, and the setup and commands that made it. */
export interface PayeeFailing extends Failing {
  readonly setup: PayeeSetup;
  readonly commands: readonly PayeeCommand[];
  readonly world: PayeeWorld;
}

export async function runPayeeCampaign(options: PayeeCampaignOptions): Promise<CampaignResult> {
  const context = await open(options.payee, options.capabilities);
  try {
    const { found, ...result } = await runEngine(options, payeeRole(context, options.maxCommands ?? 25));
    return { ...result, ...(found ? { failure: await writeFindings(options, context, found) } : {}) };
  } finally {
    await releaseClock(context);
  }
}

async function open(payee: HttpRole, capabilities: ReadonlySet<string>): Promise<PayeeContext> {
  try {
    return await openPayeeContext(payee, capabilities);
  } catch (error) {
    throw toHarnessError(error, 'payee');
  }
}

function payeeRole(context: PayeeContext, maxCommands: number): CampaignRole<[PayeeSetup, PayeeCommand[]], PayeeFailing> {
  const run = (setup: PayeeSetup, commands: readonly PayeeCommand[], halted: () => boolean = () => false) => runOnce(context, setup, commands, halted);
  return {
    input: fc.tuple(payeeSetup, payeeCommands(maxCommands)),
    run: ([setup, commands], halted) => run(setup, commands, halted),
    reduce: (failing, attempts, onAttempt) => reduceSequence({ run, simpler, leaveOut: (best) => (best.setup.startMs === 0 ? [] : [() => ({ startMs: 0 })]) }, failing, attempts, onAttempt),
    commands: (failing) => failing.commands.map(describe),
    harnessError: (error) => toHarnessError(error, 'payee'),
    ops: () => context.client.ops,
  };
}

/** One model run against fresh state: the commands in order, each skipped when its precondition does not hold. */
export async function runOnce(context: PayeeContext, setup: PayeeSetup, commands: readonly PayeeCommand[], halted: () => boolean): Promise<RunRecord<PayeeFailing> & { readonly world: PayeeWorld }> {
  const world = new PayeeWorld(context, setup);
  try {
    const model = await world.open();
    for (const spec of commands) {
      if (halted()) break;
      world.executed.push(spec);
      const ran = await (PAYEE_EXECUTORS[spec.kind] as (s: PayeeCommand, m: typeof model, w: PayeeWorld) => Promise<'ran' | 'skipped'>)(spec, model, world);
      if (ran === 'skipped') world.executed.pop();
    }
    return { world };
  } catch (error) {
    const failing = error instanceof Mismatch ? { setup, commands: [...world.executed], world, detail: error.detail, message: error.message } : undefined;
    return { world, error, ...(failing ? { failing } : {}) };
  }
}

/** Simpler forms of a command, the simplest first. */
function simpler(spec: PayeeCommand): PayeeCommand[] {
  switch (spec.kind) {
    case 'burst':
      return [{ kind: 'retrieve', request: spec.request, via: spec.vias[0]!, variant: 'exact' }, ...(spec.vias.length > 2 ? [{ ...spec, vias: spec.vias.slice(0, -1) }] : [])];
    case 'fulfil-burst':
      return [{ kind: 'fulfil', request: spec.request }, ...(spec.copies > 2 ? [{ ...spec, copies: spec.copies - 1 }] : [])];
    case 'create': {
      const { sub_interface, ...optional } = spec.input;
      return Object.keys(optional).map((member) => {
        const { [member as keyof typeof optional]: _dropped, ...rest } = optional;
        return { kind: 'create' as const, input: { sub_interface, ...rest } };
      });
    }
    case 'retrieve':
      return [...(spec.plaintext ? [{ kind: spec.kind, request: spec.request, via: spec.via, variant: spec.variant }] : []), ...(spec.via !== 'token' ? [{ ...spec, via: 'token' as const }] : [])];
    default:
      return [];
  }
}

function writeFindings(options: PayeeCampaignOptions, context: PayeeContext, found: Found<PayeeFailing>): Promise<FoundFailure> {
  const { world } = found.failing;
  return writeFinding(found, options, {
    reproduce: `cpr-conformance fuzz --role payee --seed ${options.seed}`,
    commands: world.executed.map(describe),
    crash: { role: 'payee', config: context.config, setup: found.failing.setup, commands: world.executed, exchanges: world.log.entries() },
    regression: (story) => regressionDocument({ ...story, ...scriptOf(world) }),
    reproduces: (scenario) => reproduces(payeeTarget(options.payee, options.capabilities), options.payee.description, scenario),
  });
}

/** The regression scenario's steps, the requirements their checks name and the capabilities they use. */
export function scriptOf(world: { readonly script: readonly ScriptStep[] }, role: 'payee' | 'paying-app' = 'payee') {
  const steps = world.script.map((s) => ({ ...s.fields, ...(s.expect.length > 0 ? { expect: s.expect } : {}) }));
  const requirements = [...new Set(world.script.flatMap((s) => s.expect.map((c) => c.requirement as string | undefined)).filter((r): r is string => r !== undefined))];
  const uses = new Set(world.script.map((s) => String(s.fields.do)));
  const needs = [...(uses.has('create-request') || uses.has('payee-config') ? ['provision'] : []), ...(uses.has('clock') ? ['clock'] : []), ...(uses.has('fulfil') || world.script.some((s) => String(s.fields.path ?? '').endsWith('/fulfil')) ? ['fulfil'] : [])];
  return { role, steps, requirements, needs };
}

function payeeTarget(payee: HttpRole, capabilities: ReadonlySet<string>): ScenarioTarget {
  return {
    httpRole: (role) => (role === 'payee' ? payee : undefined),
    payingApp: undefined,
    capabilities: (role) => (role === 'payee' ? (capabilities as ReadonlySet<never>) : new Set()),
    adapterKind: (role) => (role === 'payee' ? payee.kind : undefined),
    credential: () => undefined,
  };
}

/** The payee fuzzer's crash file. */
export interface PayeeCrashFile extends CrashEnvelope {
  readonly role: 'payee';
  readonly config: PayeeConfig;
  readonly setup: PayeeSetup;
  readonly commands: readonly PayeeCommand[];
}

/** The payee's parts of a crash file checked. */
export function payeeCrash(crash: CrashEnvelope, file: string): PayeeCrashFile {
  const bad = crashFault(file);
  if (crashRole(crash) !== 'payee') throw bad(`it is a finding of the ${crashRole(crash)} fuzzer, not the payee's`);
  const setup = crash.setup as Partial<PayeeSetup> | undefined;
  if (!setup || !Number.isInteger(setup.startMs) || setup.startMs! < 0 || setup.startMs! > 999) throw bad('"setup.startMs" must be a whole number of milliseconds from 0 to 999');
  for (const [i, c] of crash.commands.entries()) {
    if (!c || typeof c !== 'object' || !PAYEE_COMMAND_KINDS.includes((c as PayeeCommand).kind)) throw bad(`commands[${i}] is not a payee fuzzer command`);
  }
  return crash as PayeeCrashFile;
}

export interface PayeeReplayOutcome {
  readonly fixed: boolean;
  readonly detail?: Failing['detail'];
  readonly message?: string;
  /** The payee's configuration differs from the one the crash was found with. */
  readonly configChanged: boolean;
  readonly ops: number;
}

/** Runs a crash file's command sequence once against fresh state. */
export async function replayPayeeCrash(payee: HttpRole, capabilities: ReadonlySet<string>, crash: PayeeCrashFile): Promise<PayeeReplayOutcome> {
  const context = await open(payee, capabilities);
  // Where it listens may differ between runs; what the commands mean is the lifetime and the window.
  const { base_url: _a, plaintext_base_url: _c, ...now } = context.config;
  const { base_url: _b, plaintext_base_url: _d, ...then } = crash.config ?? context.config;
  const configChanged = JSON.stringify(now) !== JSON.stringify(then);
  try {
    const record = await runOnce(context, crash.setup, crash.commands, () => false);
    if (record.error === undefined) return { fixed: true, configChanged, ops: context.client.ops };
    if (record.error instanceof Mismatch) return { fixed: false, detail: record.error.detail, message: record.error.message, configChanged, ops: context.client.ops };
    throw toHarnessError(record.error, 'payee');
  } finally {
    await releaseClock(context);
  }
}
