// The comparison and the diff on the terminal (plain text; the terminal strips
// control characters).
import { coverageLine, VERDICT_WORD } from '../wording.ts';
import { KIND_ORDER, type ReportDiff } from './diff.ts';
import type { CompareInput } from './input.ts';
import { disagreements, type Comparison } from './matrix.ts';
import { conclusion, KIND_HEADING, list, tally } from './wording.ts';

/** The comparison's closing lines on the terminal (plain text; the terminal strips control characters). */
export function compareText(comparison: Comparison): string[] {
  const width = Math.min(40, Math.max(...comparison.implementations.map((i) => i.name.length)));
  const disagree = disagreements(comparison);
  return [
    ...comparison.implementations.map((i) => `${i.name.padEnd(width)}  ${VERDICT_WORD[i.report.verdict].padEnd(14)}  ${coverageLine(i.report.coverage)}`),
    `disagreements (passed by one, failed by another): ${disagree.length === 0 ? 'none' : `${disagree.length}: ${list(disagree.map((r) => r.id), 20)}`}`,
  ];
}

/** The diff on the terminal (plain text; the terminal strips control characters). */
export function diffText(diff: ReportDiff): string[] {
  const side = (label: string, input: CompareInput) => `${label}: ${input.report.run.target.name} (${input.source}): ${VERDICT_WORD[input.report.verdict]}; ${coverageLine(input.report.coverage)}`;
  const out = [side('before', diff.before), side('after ', diff.after)];
  for (const kind of KIND_ORDER) {
    const changes = [...diff.requirements.filter((c) => c.kind === kind).map((c) => ['requirement', c] as const), ...diff.tests.filter((c) => c.kind === kind).map((c) => ['test', c] as const)];
    if (changes.length === 0) continue;
    out.push(`${KIND_HEADING[kind].toLowerCase()}: ${changes.length}`);
    for (const [what, c] of changes) out.push(`  ${what} ${c.id}${what === 'requirement' && !c.deciding ? ' (not deciding)' : ''}: ${c.before} -> ${c.after}${c.why === '' ? '' : ` — ${c.why.slice(0, 200)}`}`);
  }
  out.push(`${tally(diff)}: ${conclusion(diff)}`);
  return out;
}
