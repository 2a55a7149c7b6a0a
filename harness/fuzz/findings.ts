// Writing a finding, for every role's fuzzer: DIR/crash-<seed>.json (the data
// replay runs again) and DIR/regression-<seed>.yaml (a scenario in the suites/
// language). Before the scenario is written it is loaded as `run --scenario`
// would load it and run against the target the finding was made on, where it
// must fail; when it does not, the file says so. A scenario the loader refuses
// is a harness defect: the finding is still reported, never hidden.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROFILE_ID } from '../../profile/index.ts';
import { parseSuite } from '../scenarios/load.ts';
import type { Scenario } from '../scenarios/types.ts';
import { CRASH_FORMAT, crashJson, type CrashEnvelope } from './crash.ts';
import type { Failing, Found } from './engine.ts';
import type { MismatchDetail } from './mismatch.ts';
import type { FindingStory, Reproduction } from './regression.ts';

/** What `fuzz` reports of a finding, whatever the role. */
export interface FoundFailure {
  readonly flaky: boolean;
  readonly detail: MismatchDetail;
  readonly message: string;
  /** The minimal command sequence: shrunk, then reduced. */
  readonly commands: readonly string[];
  /** What the reduction did: its runs, and the sequence the shrinker had left it. */
  readonly reduction: { readonly attempts: number; readonly shrunk: readonly string[] };
  readonly path: string;
  readonly crashFile: string;
  readonly regressionFile: string;
  /** Whether the regression scenario, run against the target before it was written, failed there as it must. */
  readonly reproduction?: Reproduction;
  /** Set when the written scenario does not load (a harness defect): the finding stands. */
  readonly regressionError?: string;
}

/** The role's own members of the crash file: its setup, commands and exchanges, and anything else it keeps (the Operator's policy). */
export type CrashContent = Pick<CrashEnvelope, 'setup' | 'commands' | 'exchanges'> & Partial<Pick<CrashEnvelope, 'role'>> & Record<string, unknown>;

/** Where and for what a campaign writes its findings (every role's campaign options have these). */
export interface FindingPlace {
  readonly outDir: string;
  readonly seed: number;
  readonly targetName: string;
  /** The command line that reproduces the campaign, for the files. */
  readonly reproduce?: string;
}

/** A role's part in writing its finding. */
export interface FindingWriter {
  /** The command line that reproduces the campaign when the options give none. */
  readonly reproduce: string;
  readonly commands: readonly string[];
  readonly crash: CrashContent;
  /** The regression scenario's text for the finding's story (with what became of it against the target, once it ran). */
  regression(story: FindingStory): string;
  /** Runs the scenario against the target the finding was made on. */
  reproduces(scenario: Scenario): Promise<Reproduction>;
}

export async function writeFinding<F extends Failing>(found: Found<F>, place: FindingPlace, writer: FindingWriter): Promise<FoundFailure> {
  const { seed, outDir } = place;
  const { detail, message } = found.failing;
  const reproduce = place.reproduce ?? writer.reproduce;
  mkdirSync(outDir, { recursive: true });
  const crashName = `crash-${seed}.json`;
  const regressionName = `regression-${seed}.yaml`;
  const crashFile = join(outDir, crashName);
  const regressionFile = join(outDir, regressionName);
  const crash: CrashEnvelope = {
    format: CRASH_FORMAT,
    ...(writer.crash.role !== undefined ? { role: writer.crash.role } : {}),
    profile: PROFILE_ID,
    seed,
    path: found.path,
    counterexample: found.counterexample,
    flaky: found.flaky,
    target: place.targetName,
    ...writer.crash,
    commands_text: writer.commands,
    reduction: found.reduction,
    failure: { ...detail, message },
    regression: regressionName,
    reproduce,
  };
  writeFileSync(crashFile, crashJson(crash));
  const story: FindingStory = { seed, failure: detail, flaky: found.flaky, commands: writer.commands, reproduce, crashFile: crashName };
  let regressionError: string | undefined;
  let reproduction: Reproduction | undefined;
  try {
    const suite = parseSuite(writer.regression(story), regressionName);
    // Before it is written, the scenario runs against the target it was found on: it must fail there.
    reproduction = await writer.reproduces(suite.scenarios[0]!);
  } catch (error) {
    regressionError = (error as Error).message;
  }
  writeFileSync(regressionFile, writer.regression({ ...story, ...(reproduction ? { reproduction } : {}) }));
  return {
    flaky: found.flaky,
    detail,
    message,
    commands: writer.commands,
    reduction: found.reduction,
    path: found.path,
    crashFile,
    regressionFile,
    ...(reproduction ? { reproduction } : {}),
    ...(regressionError ? { regressionError } : {}),
  };
}
