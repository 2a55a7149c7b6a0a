// The roles `cpr-conformance fuzz --role` drives: each opened from the target
// alone (the embedded reference when none is given), its test-control
// capabilities checked, and its campaign run with the options every role's
// campaign takes (harness/fuzz/engine.ts).
import type { TargetFacts } from '../target/facts.ts';
import type { HttpRole, PayingAppRole } from '../adapters/types.ts';
import { FUZZ_CAPABILITIES, runCampaign, type CampaignResult } from '../fuzz/index.ts';
import { FUZZ_ROLES, type FuzzRole } from '../fuzz/crash.ts';
import type { Budget, CampaignProgress } from '../fuzz/engine.ts';
import { PAYEE_FUZZ_CAPABILITIES, runPayeeCampaign } from '../fuzz/payee/index.ts';
import { runAppCampaign } from '../fuzz/paying-app/index.ts';
import type { RetrievalStub } from '../stub/retrieval-stub.ts';
import { resolveTarget, type ResolvedTarget, type TargetChoice } from '../runner/resolve-target.ts';
import type { Terminal } from '../runner/terminal.ts';
import { openTarget, type Target } from '../target/target.ts';
import { HarnessError } from './errors.ts';

/** `--role`: the operator unless told otherwise. */
export function roleOption(value: unknown): FuzzRole {
  if (value === undefined) return 'operator';
  if (typeof value === 'string' && (FUZZ_ROLES as readonly string[]).includes(value)) return value as FuzzRole;
  throw new HarnessError('USAGE_ERROR', `--role ${String(value)}: the fuzzers are ${FUZZ_ROLES.join(', ')}`, 'see: cpr-conformance fuzz --help');
}

/** What every role's campaign is given. */
interface CampaignCall {
  readonly seed: number;
  readonly budget: Budget;
  /** The operator's worlds per model run; 1 for the other roles. */
  readonly lanes: number;
  readonly outDir: string;
  readonly targetName: string;
  readonly reproduce: string;
  readonly reduceAttempts?: number;
  readonly onProgress?: (progress: CampaignProgress) => void;
}

interface OpenedCampaign {
  readonly name: string;
  run(call: CampaignCall): Promise<CampaignResult>;
  close(): Promise<void>;
}

/** What each role's campaign needs of test control, and why (for the error naming what is missing). */
export const FUZZ_NEEDS: Readonly<Record<'operator' | 'payee', { readonly capabilities: readonly string[]; readonly why: string }>> = {
  operator: { capabilities: FUZZ_CAPABILITIES, why: 'every model run provisions a new Principal and redeemers, freezes and advances the clock, cancels packs and reads balances (PROFILE.md §12)' },
  payee: { capabilities: PAYEE_FUZZ_CAPABILITIES, why: 'every model run creates its own requests and freezes and moves the clock (PROFILE.md §12); fulfil is used when offered' },
};

/** How a fuzzed target is opened: each request's deadline, how long to wait for its test-control lease, and the command holding it. */
export interface OpenOptions {
  readonly requestTimeoutMs?: number;
  readonly leaseWaitSeconds?: number;
  readonly command?: string;
}

export async function openCampaign(role: FuzzRole, choice: TargetChoice, terminal: Terminal, options: OpenOptions): Promise<OpenedCampaign> {
  switch (role) {
    case 'operator': {
      const opened = await openHttpFuzzRole('operator', choice, terminal, FUZZ_NEEDS.operator.capabilities, options);
      return { name: opened.name, run: (call) => runCampaign({ operator: opened.role, facts: opened.facts, ...call }), close: opened.close };
    }
    case 'payee': {
      const opened = await openHttpFuzzRole('payee', choice, terminal, FUZZ_NEEDS.payee.capabilities, options);
      return { name: opened.name, run: (call) => runPayeeCampaign({ payee: opened.role, capabilities: opened.capabilities, ...call }), close: opened.close };
    }
    case 'paying-app': {
      const opened = await openPayingApp(choice, terminal, options);
      return { name: opened.name, run: (call) => runAppCampaign({ app: opened.app, stub: opened.stub, ...call }), close: opened.close };
    }
  }
}

/**
 * Resolves the target with the harness's retrieval stub started and trusted by
 * its paying application (harness/stub/), which the paying-app fuzzer serves
 * token URIs from. A target without a paying application is a harness error.
 */
export async function openPayingApp(choice: TargetChoice, terminal: Terminal, options: OpenOptions = {}): Promise<{ readonly name: string; readonly app: PayingAppRole; readonly stub: RetrievalStub; readonly target: Target; close(): Promise<void> }> {
  const resolved = await resolveTarget(choice, terminal, { ...options, stub: true });
  const { payingApp, stub } = resolved.target;
  if (!payingApp || !stub) {
    await resolved.close();
    throw new HarnessError('CONFIG_INVALID', `${resolved.config.name} has no paying application`, 'the paying-app fuzzer drives a paying application: give a target file with a paying_app role');
  }
  return { name: resolved.description.name, app: payingApp, stub, target: resolved.target, close: resolved.close };
}

export interface OpenedHttpRole {
  readonly name: string;
  readonly role: HttpRole;
  /** What the target publishes, read once when it opened (target/facts.ts). */
  readonly facts: TargetFacts;
  readonly capabilities: ReadonlySet<string>;
  readonly target: Target;
  close(): Promise<void>;
}

/**
 * Resolves the target (starting the embedded reference when none is given, and
 * checking it answers), opens the one HTTP role fuzzed and checks the
 * capabilities its campaign needs: a missing one is a harness error naming it.
 */
export async function openHttpFuzzRole(name: 'operator' | 'payee', choice: TargetChoice, terminal: Terminal, needs: readonly string[], options: OpenOptions = {}): Promise<OpenedHttpRole> {
  const resolved: ResolvedTarget = await resolveTarget(choice, terminal, options);
  let target: Target | undefined;
  try {
    const config = resolved.config;
    const roleConfig = config[name];
    if (!roleConfig) throw new HarnessError('CONFIG_INVALID', `${config.name} has no ${name} role`, `the fuzzer drives the ${name === 'operator' ? 'Operator' : 'payee'}: give a target with a ${name} role`);
    target = await openTarget({ name: config.name, ...(config.source !== undefined ? { source: config.source } : {}), [name]: roleConfig }, options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {});
    const have = target.capabilities[name];
    const missing = needs.filter((c) => !have.has(c as never));
    if (missing.length > 0) {
      throw new HarnessError('CONFIG_INVALID', `the ${name} of ${config.name} lacks the test-control capabilit${missing.length === 1 ? 'y' : 'ies'} ${missing.join(', ')}`, FUZZ_NEEDS[name].why);
    }
    const opened = target;
    return {
      name: resolved.description.name,
      role: target[name]!,
      facts: resolved.facts,
      capabilities: have,
      target,
      close: async () => {
        await opened.close();
        await resolved.close();
      },
    };
  } catch (error) {
    await target?.close();
    await resolved.close();
    throw error;
  }
}
