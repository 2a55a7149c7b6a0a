// The stateful fuzzer of the Operator: a model of PROFILE.md §5–§6,
// fast-check commands that drive a target through its operator role and compare
// every answer with the model, and campaigns that name what they find by its
// cause and shrink and reduce it into a crash file and a regression scenario.
export { FUZZ_CAPABILITIES, MAX_LANES, openContext, replayCrash, runCampaign, runOnce, type Budget, type CampaignOptions, type CampaignProgress, type CampaignResult, type FoundFailure, type Phase, type ReplayOutcome } from './campaign.ts';
export { answerDifference, causeKey, causeText, sameCause, type Cause, type CauseKind } from './cause.ts';
export { DEFAULT_REDUCE_ATTEMPTS, reduceFinding } from './reduce.ts';
export { SHRINK_RUNS } from './engine.ts';
export { COMMAND_ARBITRARIES, commandsArbitrary, FuzzCommand } from './commands.ts';
export { describe as describeCommand, type CommandSpec } from './spec.ts';
export { LaneFailure, Run, type RunModel } from './lanes.ts';
export type { ExchangeTap, Races } from './client.ts';
export { CRASH_FORMAT, readCrashFile, type CrashFile } from './crash.ts';
export { HarnessFault, Mismatch, type MismatchDetail } from './mismatch.ts';
export { modelPolicy, OperatorModel, type ModelPolicy } from './model.ts';
export { createProgressDisplay } from './progress.ts';
export { regressionId, regressionText, regressionYaml } from './regression.ts';
