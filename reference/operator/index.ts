// The reference Operator (spec §1.2, §4.2, §4.3; PROFILE.md §4–§6, §11, §12).
export { createOperator, type Operator, type OperatorOptions, type StateSize } from './operator.ts';
export { DEFAULT_POLICY, type Policy } from './policy.ts';
export { OPERATOR_PREFIXES } from './router.ts';
export type { Attempt } from './context.ts';
export type { Cancelled, PrincipalBalance, RedeemerBalance } from './control.ts';
export type { PrincipalProvision, Provisioned, RedeemerProvision, StaffProvision } from './provision.ts';
