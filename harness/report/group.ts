// Tests that errored alike, with no check failed (every test of an unreachable
// target, say), are reported as one group rather than one entry each.
import type { TestResult } from './model.ts';

export function alikeErrors(failing: readonly TestResult[]): { groups: TestResult[][]; single: TestResult[] } {
  const byCause = new Map<string, TestResult[]>();
  for (const t of failing) {
    if (t.status !== 'error' || t.checks.some((c) => !c.passed)) continue;
    const key = `${t.error_code ?? ''}\n${t.reason ?? ''}`;
    byCause.set(key, [...(byCause.get(key) ?? []), t]);
  }
  const groups = [...byCause.values()].filter((tests) => tests.length > 1);
  const grouped = new Set(groups.flat());
  return { groups, single: failing.filter((t) => !grouped.has(t)) };
}
