// The comparison and the diff as Markdown (compare.md, diff.md): everything that
// comes from a report goes through inline(), as in summary.md.
import { inline } from '../markdown.ts';
import { coverageLine, VERDICT_WORD } from '../wording.ts';
import { diffFails, KIND_ORDER, type ReportDiff } from './diff.ts';
import { cellOf, firstLine, OBSERVED_FAILURE, type Cell, type CompareInput } from './input.ts';
import { disagreements, type ComparedImplementation, type Comparison } from './matrix.ts';
import { conclusion, DISAGREE_TEXT, KIND_HEADING, tally } from './wording.ts';

function mdStatus(cell: Cell): string {
  if (cell === 'absent') return 'not in report';
  const text = cell.replace('-', ' ');
  return OBSERVED_FAILURE.includes(cell) ? `**${text}**` : text;
}

/** A table row of cells that are Markdown already (data in them went through inline()). */
function mdRow(cells: readonly string[]): string {
  return `| ${cells.map((c) => (c === '' ? ' ' : c)).join(' | ')} |`;
}

function mdFacts(i: ComparedImplementation): string[] {
  const r = i.report;
  return [inline(i.name), `**${VERDICT_WORD[r.verdict]}**`, inline(coverageLine(r.coverage)), inline(r.run.suite_version), inline(r.run.profile_version), inline(i.source)];
}

export function compareMarkdown(comparison: Comparison): string {
  const { implementations } = comparison;
  const disagree = disagreements(comparison);
  const heads = implementations.map((i) => inline(i.name));
  const out: string[] = [`## cpr-conformance compare: ${implementations.length} implementation${implementations.length === 1 ? '' : 's'}, ${disagree.length} disagreement${disagree.length === 1 ? '' : 's'}`, ''];
  for (const warning of comparison.warnings) out.push(`**Warning**: ${inline(warning)}.`, '');
  out.push('| Implementation | Verdict | Coverage | Suite version | Profile version | Report |', '|---|---|---|---|---|---|', ...implementations.map((i) => mdRow(mdFacts(i))), '');
  out.push('### Where implementations disagree', '');
  if (disagree.length === 0) {
    out.push('No requirement was passed by one implementation and failed by another.', '');
  } else {
    out.push(
      DISAGREE_TEXT,
      '',
      `| Requirement | Level | Section | Summary | ${heads.join(' | ')} |`,
      `|---|---|---|---|${heads.map(() => '---').join('|')}|`,
      ...disagree.map((r) => mdRow([inline(r.id), inline(r.level), inline(r.sections.join(', ')), inline(r.summary), ...r.results.map((result) => `${mdStatus(cellOf(result))}${OBSERVED_FAILURE.includes(cellOf(result)) && result?.reason !== undefined ? `: ${inline(firstLine(result.reason))}` : ''}`)])),
      '',
    );
  }
  out.push(
    '### Requirements by spec section',
    '',
    'Only passed and failed (or warning, a failure that does not decide) were observed; every other status means the requirement was not exercised.',
    '',
    `| Section | Requirement | Level | Disagree | ${heads.join(' | ')} |`,
    `|---|---|---|---|${heads.map(() => '---').join('|')}|`,
  );
  for (const [section, rows] of comparison.sections) {
    rows.forEach((r, n) => out.push(mdRow([n === 0 ? inline(section) : '', inline(r.id), inline(r.level), r.disagree ? 'yes' : '', ...r.results.map((result) => `${mdStatus(cellOf(result))}${result !== undefined && !result.deciding ? ' (not deciding)' : ''}`)])));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function diffMarkdown(diff: ReportDiff): string {
  const side = (label: string, input: CompareInput) => {
    const r = input.report;
    return mdRow([label, inline(r.run.target.name), `**${VERDICT_WORD[r.verdict]}**`, inline(coverageLine(r.coverage)), inline(r.run.suite_version), inline(r.run.profile_version), inline(input.source)]);
  };
  const out = [`## cpr-conformance diff: ${inline(tally(diff))}`, ''];
  out.push(`**${diffFails(diff) ? 'Fails' : 'Passes'}**: ${inline(conclusion(diff))}.`, '');
  for (const warning of diff.warnings) out.push(`**Warning**: ${inline(warning)}.`, '');
  out.push('| | Target | Verdict | Coverage | Suite version | Profile version | Report |', '|---|---|---|---|---|---|---|', side('Before', diff.before), side('After', diff.after), '');
  if (diff.requirements.length === 0 && diff.tests.length === 0) out.push('No requirement and no test changed its outcome.', '');
  for (const kind of KIND_ORDER) {
    const requirements = diff.requirements.filter((c) => c.kind === kind);
    const tests = diff.tests.filter((c) => c.kind === kind);
    if (requirements.length === 0 && tests.length === 0) continue;
    out.push(`### ${KIND_HEADING[kind]}`, '');
    if (requirements.length > 0) {
      out.push(
        '| Requirement | Level | Before | After | Summary | Why |',
        '|---|---|---|---|---|---|',
        ...requirements.map((c) => mdRow([inline(c.id), `${inline(c.level)}${c.deciding ? '' : ' (not deciding)'}`, inline(c.before), inline(c.after), inline(c.about), inline(c.why)])),
        '',
      );
    }
    if (tests.length > 0) {
      out.push('| Test | Level | Before | After | Title | Why |', '|---|---|---|---|---|---|', ...tests.map((c) => mdRow([inline(c.id), inline(c.level), inline(c.before), inline(c.after), inline(c.about), inline(c.why)])), '');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}
