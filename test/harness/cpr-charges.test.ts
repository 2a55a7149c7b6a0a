import { describe, expect, it } from 'vitest';
import { acceptanceCharges, chargeViolations, cprRulesOf, violatedRules } from '../../harness/cpr-charges.ts';
import { findRequirement } from '../../profile/registry.ts';

const violation = (requirement: string) => ({ requirement, path: '', message: 'broken' });

describe('what a defect of a CPR is charged to', () => {
  it("charges each violation to the rule it names when that rule binds the test's role, else to the test's own", () => {
    const { own, byRule } = chargeViolations([violation('CPR-TIME-1'), violation('CPR-VER-1'), violation('CPR-MEMO-1')], 'payee', ['CPR-MEMO-1']);
    expect([...byRule.keys()]).toEqual(['CPR-TIME-1']);
    // CPR-VER-1 is the paying application's; CPR-MEMO-1 is the test's own.
    expect(own.map((v) => v.requirement)).toEqual(['CPR-VER-1', 'CPR-MEMO-1']);
    expect(violatedRules([violation('CPR-VER-1')], 'payee', ['TOK-GET-1'])).toEqual(['TOK-GET-1']);
  });

  it('charges a processed invalid CPR to DRV-VALID-1 and the broken rules that bind the paying application, never to PRF-APP-1', () => {
    expect(acceptanceCharges(['CPR-VER-1'])).toEqual(['DRV-VALID-1', 'CPR-VER-1']);
    expect(acceptanceCharges(['DRV-VALID-1', 'CPR-VER-1', 'CPR-VER-1'])).toEqual(['DRV-VALID-1', 'CPR-VER-1']);
    // A rule only the payee is bound by (the memo's length) is not the application's to break.
    expect(findRequirement('CPR-MEMO-1')!.roles).toEqual(['payee']);
    expect(acceptanceCharges(['CPR-MEMO-1'])).toEqual(['DRV-VALID-1']);
    expect(acceptanceCharges(cprRulesOf('paying-app'))).not.toContain('PRF-APP-1');
  });
});
