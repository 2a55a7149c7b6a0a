// `cpr-conformance replay FILE`: runs a fuzzer finding again against a target (the
// embedded reference when none is given) and says whether it is fixed. FILE is
// a crash file (its command sequence runs once against fresh state, compared
// with the model) or a regression scenario (run as `run --scenario` runs it).
import { findRequirement } from '../../profile/registry.ts';
import { causeText, replayCrash, sameCause, type MismatchDetail } from '../fuzz/index.ts';
import { crashRole, operatorCrash, readCrashEnvelope, type CrashEnvelope } from '../fuzz/crash.ts';
import { payeeCrash, PAYEE_FUZZ_CAPABILITIES, replayPayeeCrash } from '../fuzz/payee/index.ts';
import { appCrash, replayAppCrash } from '../fuzz/paying-app/index.ts';
import { openHttpFuzzRole, openPayingApp } from './fuzz-roles.ts';
import { scenarioTarget } from '../runner/scenario-target.ts';
import { terminalOf, type Terminal } from '../runner/terminal.ts';
import { executeScenario } from '../scenarios/execute.ts';
import { loadSuiteFile } from '../scenarios/load.ts';
import { integerOption, optionsHelp, parseCommand, type Declared } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { openOperator } from './fuzz.ts';
import { CA_FLAG, targetChoice } from './target-options.ts';
import { processIo, type CommandIo } from '../io.ts';

/** replay's options: they parse the command line and write its --help. */
export const REPLAY_OPTIONS = {
  target: { type: 'string', value: 'FILE|URL', help: "a target file, or the operator's or payee's base URL (default: the embedded reference implementation); a paying application's finding is replayed against the paying_app role of a target file or of the embedded reference (the harness starts its retrieval stub and has the application trust it)" },
  ...CA_FLAG,
  insecure: { type: 'boolean', help: 'with --target URL: skip TLS verification' },
  'request-timeout': { type: 'string', value: 'MS', help: 'deadline of each request to the target (default 10000)' },
} as const satisfies Readonly<Record<string, Declared>>;

const REPLAY_HELP = `Usage: cpr-conformance replay FILE [options]

Runs a fuzzer finding again and prints "fixed" or "still failing", with what
was expected, what the target answered and the cause (whether it is still the
crash file's). FILE is what cpr-conformance fuzz wrote, for any --role (the
file names the role it came from):
  crash-<seed>.json       the minimal command sequence, run once against fresh
                          state and compared with the model
  regression-<seed>.yaml  the regression scenario (as run --scenario runs it)

Target:
${optionsHelp(REPLAY_OPTIONS)}

Exit codes: 0 fixed, 1 still failing, 2 harness or usage error, unreachable
target or missing capability.
`;

export async function replay(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const { values, positionals } = parseReplayArgs(argv);
  if (values.help) {
    io.stdout.write(REPLAY_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new HarnessError('USAGE_ERROR', `replay takes one FILE (a crash-<seed>.json or regression-<seed>.yaml), got ${positionals.length}`, 'see: cpr-conformance replay --help');
  const file = positionals[0]!;
  const kind = /\.json$/i.test(file) ? 'crash' : /\.ya?ml$/i.test(file) ? 'scenario' : undefined;
  if (!kind) throw new HarnessError('USAGE_ERROR', `${file}: give a crash file (.json) or a regression scenario (.yaml)`, 'see: cpr-conformance replay --help');
  // Read (and validate) the file before starting any target.
  const envelope = kind === 'crash' ? readCrashEnvelope(file) : undefined;
  const suite = kind === 'scenario' ? loadSuiteFile(file) : undefined;
  const scenarioRole = suite?.scenarios[0]?.role;
  const role = envelope ? crashRole(envelope) : scenarioRole === 'payee' || scenarioRole === 'paying-app' ? scenarioRole : 'operator';
  const terminal = terminalOf(io);
  const requestTimeoutMs = integerOption('replay', 'request-timeout', values['request-timeout'], 1, 600_000);
  const timeout = { ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}), command: 'replay' };
  if (role === 'payee') {
    const payeeCrashFile = envelope ? payeeCrash(envelope, file) : undefined;
    const opened = await openHttpFuzzRole('payee', targetChoice(values, 'replay', io.env), terminal, payeeCrashFile ? PAYEE_FUZZ_CAPABILITIES : [], timeout);
    try {
      terminal.line(`replaying ${file} against ${opened.name}`);
      if (!payeeCrashFile) return await replayScenarios(suite!, opened.target, terminal);
      const outcome = await replayPayeeCrash(opened.role, opened.capabilities, payeeCrashFile);
      if (outcome.configChanged) terminal.line("note: the payee's configuration differs from the one the crash was found with; the commands resolve against the current one");
      return stillFailing(terminal, payeeCrashFile, outcome);
    } finally {
      await opened.close();
    }
  }
  if (role === 'paying-app') {
    const appCrashFile = envelope ? appCrash(envelope, file) : undefined;
    const opened = await openPayingApp(targetChoice(values, 'replay', io.env), terminal, timeout);
    try {
      terminal.line(`replaying ${file} against ${opened.name}`);
      if (!appCrashFile) return await replayScenarios(suite!, opened.target, terminal);
      return stillFailing(terminal, appCrashFile, await replayAppCrash(opened.app, opened.stub, appCrashFile));
    } finally {
      await opened.close();
    }
  }
  const crash = envelope ? operatorCrash(envelope, file) : undefined;
  const opened = await openOperator(targetChoice(values, 'replay', io.env), terminal, crash ? undefined : [], timeout);
  try {
    terminal.line(`replaying ${file} against ${opened.name}`);
    if (crash) {
      const outcome = await replayCrash(opened.operator, crash);
      if (outcome.policyChanged) terminal.line('note: the target\'s policy differs from the one the crash was found with; the commands resolve against the current one');
      return stillFailing(terminal, crash, outcome);
    }
    return await replayScenarios(suite!, opened.target, terminal);
  } finally {
    await opened.close();
  }
}

/** "fixed" or "still failing" for a crash file's sequence run again, with the cause and whether it is still the crash file's. */
function stillFailing(terminal: Terminal, crash: CrashEnvelope, outcome: { readonly fixed: boolean; readonly detail?: MismatchDetail }): number {
  if (outcome.fixed) {
    terminal.line(`fixed: the ${crash.commands.length} command(s) ran as the model predicted`);
    return EXIT.conformant;
  }
  const d = outcome.detail!;
  terminal.line(`still failing: ${d.command}: ${d.what}`);
  // Another cause than the crash file's is another fault: the one it was written for may be fixed.
  terminal.line(`  cause: ${causeText(d.cause)}${sameCause(d.cause, crash.failure.cause) ? " (the crash file's)" : `, not the crash file's (${causeText(crash.failure.cause)})`}`);
  terminal.line(`  expected: ${show(d.expected)}`);
  terminal.line(`  actual:   ${show(d.actual)}`);
  terminal.line(`  requirement: ${d.requirement}${requirementSummary(d.requirement)}${d.rule ? ` (${d.rule})` : ''}`);
  return EXIT.nonConformant;
}

async function replayScenarios(suite: ReturnType<typeof loadSuiteFile>, target: Parameters<typeof scenarioTarget>[0], terminal: Terminal): Promise<number> {
  let failing = 0;
  for (const scenario of suite.scenarios) {
    const result = await executeScenario(scenario, scenarioTarget(target), {
      levelOf: (id) => findRequirement(id)?.level ?? scenario.level,
      rerun: (id) => `cpr-conformance run --scenario ${suite.file} --only ${id}`,
    });
    if (result.status === 'passed') {
      if (suite.reproduces === false) {
        throw new HarnessError(
          'FINDING_NOT_REPRODUCED',
          `${scenario.id} passed, but this regression scenario did not fail even where its finding was made: its passing says nothing about the fault`,
          `replay the crash file beside it instead (cpr-conformance replay crash-<seed>.json)`,
        );
      }
      terminal.line(`fixed: ${scenario.id} passed (${result.checks.length} checks)`);
      continue;
    }
    if (result.status !== 'failed') {
      throw new HarnessError(result.status === 'error' ? 'HARNESS_INTERNAL' : 'CONFIG_INVALID', `${scenario.id} could not be replayed (${result.status}): ${result.reason ?? ''}`, result.missing_capabilities ? `the scenario needs: ${result.missing_capabilities.join(', ')}` : undefined);
    }
    failing += 1;
    terminal.line(`still failing: ${scenario.id}: ${result.reason ?? ''}`);
    for (const check of result.checks.filter((c) => !c.passed)) {
      terminal.line(`  ${check.check} (${check.requirement}${requirementSummary(check.requirement)})`);
      terminal.line(`    expected: ${show(check.expected)}`);
      terminal.line(`    actual:   ${show(check.actual)}`);
    }
  }
  return failing > 0 ? EXIT.nonConformant : EXIT.conformant;
}

function parseReplayArgs(argv: string[]) {
  return parseCommand('replay', argv, REPLAY_OPTIONS);
}

function requirementSummary(id: string): string {
  const summary = findRequirement(id)?.summary;
  return summary ? `: ${summary}` : '';
}

function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? 'nothing' : text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
