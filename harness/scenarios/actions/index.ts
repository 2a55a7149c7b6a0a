// The steps of a scenario: the action table (table.ts) and what the engine and
// the properties use of it (the policy read once, the clock, the paying application's calls).
export { appCall } from './app-call.ts';
export { BALANCE_REQUIREMENT, balanceRefused, bearerRefused, changedAtRenewal, failedHandover, GRANT_REQUIREMENTS, grantedOperation, grantedOtherwise, HANDOVER_REQUIREMENT, KEPT_REQUIREMENTS, keptMembers, notePackDepths, renewalChanged, sendsRenewals } from './cashpack.ts';
export { adoptClock, control, CONTROL_RULE } from './control.ts';
export { exactClockForPolicy } from './exact-clock.ts';
export { operatorKey, policyOf, tightPolicy, type Policy } from './policy.ts';
export { ACTION_IMPLEMENTATIONS } from './table.ts';
