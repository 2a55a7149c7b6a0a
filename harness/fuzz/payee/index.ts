// The payee fuzzer: a model of the retrieval tokens and requests of PROFILE.md
// §10 and §12, generated commands that drive a payee through its HTTP role,
// and campaigns that shrink, reduce and write what they find.
export { payeeCrash, replayPayeeCrash, runOnce as runPayeeOnce, runPayeeCampaign, type PayeeCampaignOptions, type PayeeCrashFile, type PayeeFailing, type PayeeReplayOutcome } from './campaign.ts';
export { PAYEE_COMMAND_ARBITRARIES, payeeCommands, payeeSetup } from './commands.ts';
export { FULFIL_RULES, PayeeModel, RETRIEVE_RULES } from './model.ts';
export { PAYEE_COMMAND_KINDS, type PayeeCommand, type PayeeSetup } from './spec.ts';
export { openPayeeContext, PAYEE_FUZZ_CAPABILITIES, PayeeWorld, type PayeeContext } from './world.ts';
