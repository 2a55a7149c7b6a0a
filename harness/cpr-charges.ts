// Which requirement a defect of a CPR is charged to. validateCpr names the
// registry rule each violation breaks (profile/cpr/validate.ts); a test that
// validates a CPR it was served charges each violation to that rule, not to
// the rule the test is about: a payee that writes its timestamps in local time
// breaks CPR-TIME-1 wherever its CPR is read, never the memo's length rule of
// the scenario that happened to read it. A rule that does not bind the
// test's role (CPR-VER-1 is the paying application's) cannot be charged to it;
// such a violation stays with the test's own requirements.
import { CPR_RULES, type Violation } from '../profile/cpr/index.ts';
import { findRequirement, type Role } from '../profile/registry.ts';

const binds = (id: string, role: Role): boolean => findRequirement(id)?.roles.includes(role) ?? false;

/**
 * What a paying application that processed an invalid CPR broke: DRV-VALID-1
 * (an invalid request is not processed) and each rule the CPR broke that binds
 * it. Never the rule of the channel it came through, nor the profile's form of
 * a rejection (PRF-APP-1): there was no rejection.
 */
export function acceptanceCharges(broken: readonly string[]): string[] {
  return ['DRV-VALID-1', ...new Set(broken.filter((id) => binds(id, 'paying-app') && id !== 'DRV-VALID-1'))];
}

/** The rules of CPR_RULES that bind this role: what validating a CPR can charge in a test of it. */
export function cprRulesOf(role: Role): string[] {
  return CPR_RULES.filter((id) => binds(id, role));
}

interface ChargedViolations {
  /** The violations of the test's own requirements, and those whose rule does not bind its role. */
  readonly own: readonly Violation[];
  /** The other violations, by the rule each names, in the order first named. */
  readonly byRule: ReadonlyMap<string, readonly Violation[]>;
}

/** Each violation charged to the rule it names, unless that rule is one of `own` or does not bind the role. */
export function chargeViolations(violations: readonly Violation[], role: Role, own: readonly string[]): ChargedViolations {
  const mine: Violation[] = [];
  const byRule = new Map<string, Violation[]>();
  for (const v of violations) {
    if (own.includes(v.requirement) || !binds(v.requirement, role)) mine.push(v);
    else byRule.set(v.requirement, [...(byRule.get(v.requirement) ?? []), v]);
  }
  return { own: mine, byRule };
}

/** The requirements one failure is charged to: the rules the violations name that bind the role, else `fallback`. */
export function violatedRules(violations: readonly Violation[], role: Role, fallback: readonly string[]): string[] {
  const { own, byRule } = chargeViolations(violations, role, fallback);
  return [...byRule.keys(), ...(own.length > 0 ? fallback : [])];
}
