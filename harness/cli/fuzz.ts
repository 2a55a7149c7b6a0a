// `cpr-conformance fuzz`: stateful model-based fuzzing of an Operator, a payee
// or a paying application (--role; the embedded reference when no target is
// given). See harness/fuzz/.
import { randomBytes } from 'node:crypto';
import { join, relative, resolve } from 'node:path';
import { PROFILE_ID } from '../../profile/index.ts';
import type { HttpRole } from '../adapters/types.ts';
import { causeText, createProgressDisplay, FUZZ_CAPABILITIES, MAX_LANES, SHRINK_RUNS, type Budget } from '../fuzz/index.ts';
import { openCampaign, openHttpFuzzRole, roleOption, type OpenedHttpRole, type OpenOptions } from './fuzz-roles.ts';
import type { TargetChoice } from '../runner/resolve-target.ts';
import { terminalOf, type Terminal } from '../runner/terminal.ts';
import { integerOption, optionLines, optionsHelp, parse, shardOption, type Declared } from './args.ts';
import { shardBudget, shardSeeds, writeShardRecord } from '../fuzz/shards.ts';
import { EXIT, HarnessError } from './errors.ts';
import { CA_FLAG, leaseWaitOf, LIFECYCLE_HELP, serverOptionsOf, serverUp, TARGET_FLAGS, targetChoice, writableDir } from './target-options.ts';
import { uniqueStamp } from '../text.ts';
import { processIo, type CommandIo } from '../io.ts';

/** Concurrent worlds of a `fuzz` campaign unless --lanes says otherwise. */
const DEFAULT_LANES = 4;

/** fuzz's options, by the heading its --help lists them under: they parse the command line and write its --help. */
const FUZZ_ROLE = {
  role: { type: 'string', value: 'ROLE', help: 'operator (default), payee or paying-app' },
} as const satisfies Readonly<Record<string, Declared>>;

const FUZZ_TARGET = {
  target: { type: 'string', value: 'FILE|URL', help: "a target file (see: cpr-conformance init), or the operator's (payee's) base URL" },
  ...CA_FLAG,
  insecure: { type: 'boolean', help: 'with --target URL: skip TLS verification' },
  'request-timeout': { type: 'string', value: 'MS', help: 'deadline of each request to the target (default 10000): a target that stops answering ends the campaign after one such wait (exit 2)' },
  'lease-wait': { type: 'string', value: 'S', help: "when another run or campaign holds the target's test-control lease (PROFILE.md §12), wait up to S seconds for it; without it the campaign stops at once (HARNESS_TARGET_BUSY, exit 2). Shards of a campaign against one target instance take turns this way" },
} as const satisfies Readonly<Record<string, Declared>>;

const FUZZ_BUDGET = {
  time: { type: 'string', value: 'S', help: 'explore for S seconds (default 30); shrinking a failure has its own bound (half the budget, 10 s to 120 s)' },
  runs: { type: 'string', value: 'N', help: `explore N model runs instead of a time budget; shrinking a failure then makes at most ${SHRINK_RUNS} runs` },
  seed: { type: 'string', value: 'N', help: 'seed (default random, printed): the same seed explores the same command sequences' },
  'reduce-attempts': { type: 'string', value: 'N', help: 'runs the reduction after shrinking makes at most (default 100, 0 for none): each tries the finding without a command, a burst member or an account' },
  lanes: { type: 'string', value: 'N', help: `operator only: worlds per model run, driven concurrently (default ${DEFAULT_LANES}, 1 to ${MAX_LANES}): each has its own accounts and packs, so a run finds what N sequential runs would, while N requests are in flight. A finding is written as the history of the one world that failed.` },
  shard: { type: 'string', value: 'i/n', help: "run shard i of n of the campaign (on n machines, the same --seed, --lanes and budget on each): shard 1 explores with the seed itself, shard i > 1 with a seed derived from it and i. --time is each shard's own; --runs N is the campaign's, split between the shards. Always writes DIR/fuzz-shard.json; join the shards with: cpr-conformance fuzz merge DIR..." },
} as const satisfies Readonly<Record<string, Declared>>;

const FUZZ_OUTPUT = {
  out: { type: 'string', value: 'DIR', help: 'where crash-<seed>.json and regression-<seed>.yaml go when something is found (default reports/fuzz-<time>/)' },
} as const satisfies Readonly<Record<string, Declared>>;

/** Every option fuzz parses: the target's shared flags and its own. */
export const FUZZ_OPTIONS = { ...TARGET_FLAGS, ...FUZZ_ROLE, ...FUZZ_TARGET, ...FUZZ_BUDGET, ...FUZZ_OUTPUT } as const;

const FUZZ_HELP = `Usage: cpr-conformance fuzz [options]
       cpr-conformance fuzz merge DIR... [--out DIR]
       cpr-conformance fuzz roles REPORT

Stateful model-based fuzzing of one role of an implementation (--role; the
Operator by default).

--role operator (the default): random sequences of issue, renew,
redeem, status, clock, cancel, resends, bursts of concurrent requests and
interleavings, different requests released together (judged by whether some
order of them explains every answer), requests breaking two or three checks at
once, messages dated on either side of every window, stale and tampered pack
versions, accounts provisioned again, floods of ids and many packs, amounts up
to the largest and every asset of the policy, balances read or not; each answer
compared with a model of PROFILE.md §5-§6 (status, problem code, chain digest,
balances). Every model run starts from fresh state
(a new Principal and new redeemers). A difference is named by its cause: the
first thing that differed (status, problem code, then the body), the
requirement of the model's rule it concerns and the kind of request that
carried it, whatever command sent it. It is shrunk to a minimal command
sequence with the same cause, replayed against fresh state once more (FLAKY
when it does not fail again), reduced to what the cause needs (each command,
burst member and account that is not) and written as a crash file and a
regression scenario. With no --target, the embedded reference implementation
is fuzzed.

--role payee: requests of every sub-interface created through test control,
their tokens retrieved through every channel (token, QR URI, deep link), alone
and concurrently, as they are or truncated, extended, prefixed, in another case
or percent-encoded, over TLS and plaintext; the payee's clock moved to within a
millisecond of every instant; fulfilment before and after expiry. Compared with
a model of PROFILE.md §10 and §12. Needs the capabilities provision and clock.

--role paying-app: generated CPRs, most with one to three fields drawn from
their field classes (identifier case and form, 1 to 9 fraction digits,
offsets, leap seconds, amounts beyond 2^53, text at its bound in code points,
NFC and NFD, letter case, payer data at any depth), the others valid or broken
in one rule; with a BOM, a member twice or escaped names at any depth, no
JSON, at and over 65 536 bytes; read through every channel, token URIs served
by the harness's retrieval stub (TLS with a CA the application is told to
trust) with redirects, other media types, error statuses, chunked, slow and
cut-off bodies; Payments derived at and within a second of the expiry. The
profile's own validator is the oracle; the stub records every request
(plaintext, elsewhere, twice is a finding). The target needs a paying_app role
(a target file; the embedded reference's by default).

For the Operator the target needs the test-control capabilities provision,
clock, balance and cancel (PROFILE.md §12). The campaign holds its lease when
the target offers one; against one that does not, a clock the model did not
move ends the campaign as a harness error (HARNESS_CLOCK_MOVED), never a
finding.

Role:
${optionLines(FUZZ_ROLE)}

Target:
${optionLines(FUZZ_TARGET)}
${LIFECYCLE_HELP}
For a campaign the report folder is --out DIR: a --start server's output goes
to DIR/server.log; it is started before the campaign and stopped after it,
Ctrl-C included.

Budget:
${optionLines(FUZZ_BUDGET)}

Output:
${optionsHelp(FUZZ_OUTPUT)}

fuzz merge DIR... joins the --out folders of the shards of one campaign into
--out DIR (default reports/fuzz-merged): fuzz.json, summary.md and each
finding's crash file and regression scenario, a finding found by several
shards (the same cause, whatever sequences showed it) once. It
refuses (FUZZ_SHARDS_MISSING, exit 2, nothing written) until every shard
reported. Exit 0 nothing found, 1 findings.

fuzz roles REPORT prints the roles the target of a run (its report.json) can be
fuzzed in, one a line: those it has among the run's --role selection, the
operator and the payee with the capabilities their fuzzers need (the others
named on stderr with why). A CI step fuzzes each of them (action.yml).

Progress goes to stderr; the last line of output is the throughput, "N ops/s"
(HTTP operations per second; for a paying application, calls to it). Replay a
finding with:
  cpr-conformance replay DIR/crash-<seed>.json      (or the .yaml; or
  cpr-conformance run --scenario DIR/regression-<seed>.yaml)

Exit codes: 0 nothing found, 1 a failure found (files written), 2 harness or
usage error, unreachable target or missing capability.
`;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export async function fuzz(argv: string[], io: CommandIo = processIo()): Promise<number> {
  if (argv[0] === 'merge') return (await import('./fuzz-merge.ts')).fuzzMerge(argv.slice(1), io);
  if (argv[0] === 'roles') return (await import('./fuzz-roles-of.ts')).fuzzRolesOf(argv.slice(1), io);
  const values = parse('fuzz', argv, FUZZ_OPTIONS);
  if (values.help) {
    io.stdout.write(FUZZ_HELP);
    return 0;
  }
  const role = roleOption(values.role);
  if (role !== 'operator' && values.lanes !== undefined) throw new HarnessError('USAGE_ERROR', `--lanes is for the operator's campaign; the ${role} fuzzer drives one world at a time`, 'leave out --lanes, or fuzz the operator (--role operator)');
  if (values.time !== undefined && values.runs !== undefined) throw new HarnessError('USAGE_ERROR', 'give either --time or --runs, not both', 'see: cpr-conformance fuzz --help');
  const runs = integerOption('fuzz', 'runs', values.runs, 1, 1_000_000_000);
  const time = integerOption('fuzz', 'time', values.time, 1, 86_400);
  const campaignBudget: Budget = runs !== undefined ? { kind: 'runs', runs } : { kind: 'time', ms: (time ?? 30) * 1000 };
  const shard = shardOption('fuzz', values.shard);
  if (shard !== undefined && runs !== undefined && runs < shard.count) throw new HarnessError('USAGE_ERROR', `--runs ${runs} cannot be split between ${shard.count} shards: --runs is the campaign's, each shard needs one at least`, 'give --runs at least the number of shards, or a --time budget (each shard\'s own)');
  const campaignSeed = integerOption('fuzz', 'seed', values.seed, 0, 2 ** 32 - 1) ?? randomBytes(4).readUInt32BE(0);
  // A shard explores with its own seed and share (shards.ts); without --shard, the campaign's.
  const seed = shard === undefined ? campaignSeed : shardSeeds(campaignSeed, shard.count)[shard.index - 1]!;
  const budget = shard === undefined ? campaignBudget : shardBudget(campaignBudget, shard.index, shard.count);
  const lanes = role === 'operator' ? (integerOption('fuzz', 'lanes', values.lanes, 1, MAX_LANES) ?? DEFAULT_LANES) : 1;
  const reduceAttempts = integerOption('fuzz', 'reduce-attempts', values['reduce-attempts'], 0, 10_000);
  const choice = targetChoice(values, 'fuzz', io.env);
  const outDir = resolve(values.out ?? join('reports', `fuzz-${uniqueStamp(new Date())}`));
  const terminal = terminalOf(io);

  const requestTimeoutMs = integerOption('fuzz', 'request-timeout', values['request-timeout'], 1, 600_000);
  const stopServer = await serverUp(serverOptionsOf(values, 'fuzz', choice, values.start === undefined ? outDir : writableDir(outDir, '--out'), io.env), terminal);
  const opened = await openCampaign(role, choice, terminal, { ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}), ...leaseWaitOf(values, 'fuzz'), command: 'fuzz' }).catch(async (error: unknown) => {
    await stopServer();
    throw error;
  });
  // Ctrl-C (or SIGTERM) releases the target's lease and closes it, and stops a --start server, before the process ends; a second one ends it at once.
  const interrupted = () => {
    io.stderr.write('cpr-conformance: interrupted: releasing the target and stopping the campaign (again to exit at once)\n');
    void opened
      .close()
      .then(stopServer)
      .finally(() => process.exit(EXIT.error));
  };
  for (const signal of SIGNALS) process.once(signal, interrupted);
  try {
    const budgetText = budget.kind === 'time' ? `${budget.ms / 1000} s` : `${budget.runs} model runs`;
    const shardText = shard === undefined ? '' : `shard ${shard.text} of campaign seed ${campaignSeed}, `;
    const laneText = role === 'operator' ? `, ${lanes} lane${lanes === 1 ? '' : 's'}` : '';
    terminal.line(`cpr-conformance fuzz${role === 'operator' ? '' : ` --role ${role}`} (${PROFILE_ID}) against ${opened.name}: ${shardText}seed ${seed}${laneText}, budget ${budgetText}`);
    const progress = createProgressDisplay(io.stderr, io.env);
    const reproduce = ['cpr-conformance fuzz', ...(role === 'operator' ? [] : [`--role ${role}`]), `--seed ${seed}`, ...(role === 'operator' ? [`--lanes ${lanes}`] : []), ...targetArgs(values), budget.kind === 'runs' ? `--runs ${budget.runs}` : `--time ${budget.ms / 1000}`].join(' ');
    const result = await opened.run({ seed, budget, lanes, outDir, targetName: opened.name, reproduce, ...(reduceAttempts !== undefined ? { reduceAttempts } : {}), onProgress: (p) => progress.update(p) }).finally(() => progress.end());
    terminal.line(`${result.runs} model runs (${result.shrinks} more while shrinking, ${result.reductions} while reducing), ${result.ops} ${role === 'paying-app' ? 'calls to the application' : 'HTTP operations'} in ${(result.elapsedMs / 1000).toFixed(1)} s`);
    if (shard !== undefined) {
      const record = writeShardRecord(outDir, { shard: shard.text, campaignSeed, lanes, budget: campaignBudget, target: opened.name, role }, result);
      terminal.line(`shard record: ${shown(record)} (join the shards with: cpr-conformance fuzz merge DIR...)`);
    }
    const failure = result.failure;
    if (!failure) {
      terminal.line(`nothing found: every ${role === 'paying-app' ? 'result' : 'answer'} matched the model`);
    } else {
      terminal.line(`${failure.flaky ? 'FLAKY' : 'FOUND'} ${failure.detail.requirement}: ${failure.message}`);
      if (failure.flaky) terminal.line('  the shrunk counterexample did not fail again with its cause against fresh state: a race or hidden state; it is reported, not hidden');
      terminal.line(`  cause: ${causeText(failure.detail.cause)}`);
      terminal.line(`  expected: ${show(failure.detail.expected)}`);
      terminal.line(`  actual:   ${show(failure.detail.actual)}`);
      const reduced = failure.reduction.attempts > 0 ? `, reduced from ${failure.reduction.shrunk.length} in ${failure.reduction.attempts} run${failure.reduction.attempts === 1 ? '' : 's'}` : '';
      terminal.line(`  minimal command sequence (${failure.commands.length}${reduced}):`);
      for (const c of failure.commands) terminal.line(`    ${c}`);
      terminal.line(`  seed ${seed}, path ${failure.path}`);
      terminal.line(`  crash file: ${shown(failure.crashFile)}`);
      terminal.line(`  regression scenario: ${shown(failure.regressionFile)}${failure.reproduction ? (failure.reproduction.reproduces ? ' (checked: it fails against this target)' : ' (DOES NOT REPRODUCE the finding)') : ''}`);
      if (failure.reproduction?.reproduces === false) terminal.line(`  warning: the regression scenario ${failure.reproduction.note}; replay the crash file to follow this finding`);
      if (failure.regressionError) terminal.line(`  warning: the regression scenario does not load (a harness defect, please report it): ${failure.regressionError}`);
      terminal.line(`  replay: cpr-conformance replay ${shown(failure.regressionFile)}${targetArgs(values).length ? ` ${targetArgs(values).join(' ')}` : ''}`);
    }
    for (const cause of result.otherCauses) terminal.line(`also seen while shrinking, not followed: ${causeText(cause)} (fuzz again once the finding is fixed)`);
    terminal.line(`${Math.round(result.opsPerSecond)} ops/s`);
    return failure ? EXIT.nonConformant : EXIT.conformant;
  } finally {
    for (const signal of SIGNALS) process.off(signal, interrupted);
    await opened.close();
    await stopServer();
  }
}

/**
 * Resolves the target (starting the embedded reference when none is given, and
 * checking it answers), opens its operator role alone and checks the
 * capabilities the fuzzer needs: a missing one is a harness error naming it.
 */
export async function openOperator(choice: TargetChoice, terminal: Terminal, needs: readonly string[] = FUZZ_CAPABILITIES, options: OpenOptions = {}): Promise<OpenedHttpRole & { readonly operator: HttpRole }> {
  const opened = await openHttpFuzzRole('operator', choice, terminal, needs, options);
  return { ...opened, operator: opened.role };
}

function targetArgs(values: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (values.target !== undefined) out.push(`--target ${quote(values.target as string)}`);
  if (values.ca !== undefined) out.push(`--ca ${quote(values.ca as string)}`);
  if (values.insecure) out.push('--insecure');
  if (values['request-timeout'] !== undefined) out.push(`--request-timeout ${values['request-timeout'] as string}`);
  if (values['lease-wait'] !== undefined) out.push(`--lease-wait ${values['lease-wait'] as string}`);
  return out;
}

function quote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}

function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? 'nothing' : text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
