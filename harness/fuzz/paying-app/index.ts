// The paying-application fuzzer: generated documents delivered through every
// channel (token URIs through the harness's retrieval stub), judged by the
// profile's own validator as the oracle, and campaigns that shrink, reduce and
// write what they find.
export { appCrash, replayAppCrash, runAppCampaign, runOnce as runAppOnce, type AppCampaignOptions, type AppCrashFile, type AppFailing } from './campaign.ts';
export { appCommandArbitraries, appCommands, DOCUMENT_SOURCES, type DocumentSource } from './commands.ts';
export { drawnCpr, type Draw, type DrawnCprConstraints } from './documents.ts';
export { AppWorld, encode, expiredCopy, FAR_AHEAD, type AppContext } from './execute.ts';
export { documentOutcomes, expectDerive, expectRead, type Expectation, type Outcome } from './oracle.ts';
export { APP_COMMAND_KINDS, CHANNELS, type AppCommand, type Channel, type Encoding, type Serving } from './spec.ts';
