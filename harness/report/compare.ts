// Reports side by side: several implementations in one requirement matrix (where
// one passed what another failed, the spec may be read two ways), and two runs of
// one implementation (what a change broke, fixed or stopped exercising). Pure
// functions over the result model; the views escape everything that comes from a
// report exactly as report.html and summary.md do.
import { randomBytes } from 'node:crypto';
import type { Level } from '../../profile/registry.ts';
import { observedFailure } from './aggregate.ts';
import { badge, CSS, escapeHtml as esc, pageHead, sectionGroups } from './html.ts';
import { inline } from './markdown.ts';
import type { Report, RequirementResult, RequirementStatus, TestResult, Verdict } from './model.ts';
import { coverageLine, shownOutcome, VERDICT_WORD, reasonText } from './wording.ts';

/** A report and where it was read from (a path, as given on the command line). */
export interface CompareInput {
  readonly source: string;
  readonly report: Report;
}

interface ComparedImplementation extends CompareInput {
  /** The target's name, made unique among the inputs ("name (2)"). */
  readonly name: string;
  /** A file name for its badge, unique among the inputs. */
  readonly slug: string;
}

/** A requirement's status in one report, or `absent` when that report has no such requirement (another suite version). */
type Cell = RequirementStatus | 'absent';

interface ComparedRequirement {
  readonly id: string;
  readonly level: Level;
  readonly sections: readonly string[];
  readonly summary: string;
  /** One per implementation, in input order. */
  readonly results: readonly (RequirementResult | undefined)[];
  /** Observed both ways: at least one implementation passed it and at least one failed it (or warned). */
  readonly disagree: boolean;
  /** The statuses are not all the same (a disagreement, or a difference in what was exercised). */
  readonly differ: boolean;
}

interface Comparison {
  readonly implementations: readonly ComparedImplementation[];
  /** Requirements grouped by their first spec section, in section order (as report.html groups them). */
  readonly sections: readonly (readonly [string, readonly ComparedRequirement[]])[];
  /** Why the comparison may not compare like with like (different suite or profile versions, say). */
  readonly warnings: readonly string[];
}

const OBSERVED_FAILURE: readonly Cell[] = ['failed', 'warning'];

const DISAGREE_TEXT = 'Requirements one implementation passed and another failed, both observed: the spec may be read two ways here, or one of them is wrong.';

function cellOf(result: RequirementResult | undefined): Cell {
  return result?.status ?? 'absent';
}

export function compareReports(inputs: readonly CompareInput[]): Comparison {
  const names = unique(inputs.map((input) => (input.report.run.target.name.trim() === '' ? input.source : input.report.run.target.name)), (name, n) => `${name} (${n})`);
  const slugs = unique(names.map(slugOf), (slug, n) => `${slug}-${n}`);
  const implementations = inputs.map((input, i) => ({ ...input, name: names[i]!, slug: slugs[i]! }));
  const byId = inputs.map((input) => new Map(input.report.requirements.map((r) => [r.id, r])));
  // Every requirement any input has, each once: the first report's own result stands for it when grouping.
  const representative = new Map<string, RequirementResult>();
  for (const input of inputs) for (const r of input.report.requirements) if (!representative.has(r.id)) representative.set(r.id, r);
  const sections = sectionGroups([...representative.values()]).map(([section, group]) => {
    const rows = group.map((r): ComparedRequirement => {
      const results = byId.map((map) => map.get(r.id));
      const cells = results.map(cellOf);
      return {
        id: r.id,
        level: r.level,
        sections: r.sections,
        summary: r.summary,
        results,
        disagree: cells.includes('passed') && cells.some((c) => OBSERVED_FAILURE.includes(c)),
        differ: new Set(cells).size > 1,
      };
    });
    return [section, rows] as const;
  });
  return { implementations, sections, warnings: comparisonWarnings(implementations) };
}

/** The requirements implementations disagree on, in section order. */
function disagreements(comparison: Comparison): ComparedRequirement[] {
  return comparison.sections.flatMap(([, rows]) => rows.filter((r) => r.disagree));
}

function unique(values: readonly string[], numbered: (value: string, n: number) => string): string[] {
  const used = new Set<string>();
  return values.map((value) => {
    let candidate = value;
    for (let n = 2; used.has(candidate); n++) candidate = numbered(value, n);
    used.add(candidate);
    return candidate;
  });
}

/** Lower-case letters, digits and dashes only: never a path separator, a dot segment or a hidden file. */
function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'implementation' : slug;
}

/** Which failures decide a report's verdict: "--strict, PROFILE deciding". */
function verdictRules(report: Report): string {
  return [report.run.strict ? '--strict' : 'SHOULD failures as warnings', report.run.profile_advisory ? '--profile-advisory' : 'PROFILE deciding'].join(', ');
}

function comparisonWarnings(implementations: readonly ComparedImplementation[]): string[] {
  const warnings: string[] = [];
  const differing = (what: string, valueOf: (report: Report) => string, why: string) => {
    const groups = new Map<string, string[]>();
    for (const i of implementations) groups.set(valueOf(i.report), [...(groups.get(valueOf(i.report)) ?? []), i.name]);
    if (groups.size > 1) warnings.push(`the inputs ran different ${what}: ${[...groups].map(([value, names]) => `${value} (${names.join(', ')})`).join('; ')}; ${why}`);
  };
  const apples = 'their requirements and tests may differ, so the comparison is apples to oranges';
  differing('suite versions', (r) => r.run.suite_version, apples);
  differing('profile versions', (r) => r.run.profile_version, apples);
  differing('verdict rules', verdictRules, 'a failure decides in one and is a warning in another');
  for (const i of implementations) if (i.report.run.incomplete) warnings.push(`the run of ${i.name} was cut short: its results are partial`);
  return warnings;
}

// --- shields.io endpoint badges -------------------------------------------------

/** The shields.io endpoint format (https://shields.io/badges/endpoint-badge). */
interface EndpointBadge {
  readonly schemaVersion: 1;
  readonly label: string;
  readonly message: string;
  readonly color: string;
}

const BADGE_COLOR: Readonly<Record<Verdict, string>> = { conformant: 'brightgreen', incomplete: 'yellow', 'non-conformant': 'red', error: 'lightgrey' };

/** The verdict and the deciding requirements passed of all: "conformant 101/101", "non-conformant 3 failed, 98/101". */
export function endpointBadge(report: Report): EndpointBadge {
  const c = report.coverage;
  const failed = report.verdict === 'non-conformant' ? ` ${c.failed} failed,` : '';
  return { schemaVersion: 1, label: 'CPR conformance', message: `${report.verdict}${failed} ${c.passed}/${c.deciding}`, color: BADGE_COLOR[report.verdict] };
}

// --- the comparison as Markdown -------------------------------------------------

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

function firstLine(text: string): string {
  const line = text.split('\n')[0]!;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

// --- the comparison as HTML -------------------------------------------------------

function htmlStatus(result: RequirementResult | undefined, withReason: boolean): string {
  if (result === undefined) return '<span class="badge s-unknown">not in report</span>';
  const reason = withReason && result.reason !== undefined && result.status !== 'passed' ? `<br><span class="muted">${esc(firstLine(result.reason))}</span>` : '';
  return `${badge(result.status)}${result.deciding ? '' : ' <span class="muted">not deciding</span>'}${reason}`;
}

function verdictBadge(verdict: Verdict): string {
  return `<span class="verdict v-${verdict in VERDICT_WORD ? verdict : 'error'}">${esc(VERDICT_WORD[verdict] ?? 'UNKNOWN')}</span>`;
}

export function compareHtml(comparison: Comparison): string {
  const nonce = randomBytes(18).toString('base64');
  const { implementations } = comparison;
  const disagree = disagreements(comparison);
  const heads = implementations.map((i) => `<th scope="col">${esc(i.name)}</th>`).join('');
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const facts = implementations.map(
    (i) =>
      `<tr><td>${esc(i.name)}</td><td>${verdictBadge(i.report.verdict)}</td><td>${esc(coverageLine(i.report.coverage))}</td><td>${esc(i.report.run.suite_version)}</td><td>${esc(i.report.run.profile_version)}</td><td><code>${esc(i.source)}</code></td></tr>`,
  );
  const all = comparison.sections.flatMap(([, rows]) => rows);
  const buttons = [
    `<button type="button" data-filter="all" aria-pressed="true">all (${all.length})</button>`,
    `<button type="button" data-filter="disagree" aria-pressed="false">where they disagree (${disagree.length})</button>`,
    `<button type="button" data-filter="differ" aria-pressed="false">where statuses differ (${all.filter((r) => r.differ).length})</button>`,
  ];
  const matrix = comparison.sections.map(
    ([section, rows]) =>
      `<tbody><tr class="section"><th colspan="${3 + implementations.length}" scope="colgroup">${esc(section)}</th></tr>\n${rows
        .map(
          (r) =>
            `<tr data-row${r.disagree ? ' data-disagree class="disagree"' : ''}${r.differ ? ' data-differ' : ''}><td class="id">${esc(r.id)}</td><td>${esc(r.level)}</td><td>${esc(r.summary)}</td>${r.results.map((result) => `<td>${htmlStatus(result, false)}</td>`).join('')}</tr>`,
        )
        .join('\n')}</tbody>`,
  );
  const disagreeTable =
    disagree.length === 0
      ? '<p>No requirement was passed by one implementation and failed by another.</p>'
      : [
          `<p>${esc(DISAGREE_TEXT)}</p>`,
          `<table id="disagreements"><thead><tr><th>ID</th><th>Level</th><th>Section</th><th>Summary</th>${heads}</tr></thead><tbody>`,
          ...disagree.map(
            (r) =>
              `<tr class="disagree"><td class="id">${esc(r.id)}</td><td>${esc(r.level)}</td><td>${esc(r.sections.join(', '))}</td><td>${esc(r.summary)}</td>${r.results.map((result) => `<td>${htmlStatus(result, true)}</td>`).join('')}</tr>`,
          ),
          '</tbody></table>',
        ].join('\n');
  return [
    ...pageHead(nonce, `cpr-conformance compare: ${count(implementations.length, 'implementation')}`, CSS + COMPARE_CSS),
    '<body>',
    `<header class="banner v-compare"><h1>${esc(count(implementations.length, 'implementation'))} compared</h1><p>${esc(count(disagree.length, 'requirement'))} where one passed and another failed.</p>${comparison.warnings.map((w) => `<p class="warning">Warning: ${esc(w)}.</p>`).join('')}</header>`,
    '<main>',
    '<section id="implementations"><h2>Implementations</h2>',
    `<table class="compact"><thead><tr><th>Implementation</th><th>Verdict</th><th>Coverage</th><th>Suite version</th><th>Profile version</th><th>Report</th></tr></thead><tbody>${facts.join('')}</tbody></table>`,
    '</section>',
    '<section id="disagree"><h2>Where implementations disagree</h2>',
    disagreeTable,
    '</section>',
    '<section id="requirements"><h2>Requirements by spec section</h2>',
    '<p class="muted">Only passed and failed (or warning, a failure that does not decide) were observed; every other status means the requirement was not exercised.</p>',
    // Hidden until our script runs: without it the buttons would do nothing.
    `<div class="filters" id="filters" role="group" aria-label="Show requirements" hidden>${buttons.join('')}</div>`,
    `<table id="matrix"><thead><tr><th>ID</th><th>Level</th><th>Summary</th>${heads}</tr></thead>`,
    matrix.join('\n'),
    '</table>',
    '</section>',
    '</main>',
    `<script nonce="${nonce}">${COMPARE_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

// Neither contains `<`: nothing in them can end their element early.
const COMPARE_CSS = `
.v-compare{background:#0969da}
.banner .warning{font-weight:600}
.verdict{display:inline-block;padding:0 7px;border-radius:9px;font-size:11px;font-weight:600;line-height:18px;color:#fff;white-space:nowrap}
tr.disagree td{background:color-mix(in srgb,var(--bad) 12%,transparent)}
tr.disagree td.id{font-weight:600}
`;

const COMPARE_SCRIPT = `
(() => {
  'use strict';
  const buttons = [...document.querySelectorAll('button[data-filter]')];
  const groups = [...document.querySelectorAll('#matrix tbody')];
  const apply = (filter) => {
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.getAttribute('data-filter') === filter));
    for (const group of groups) {
      let shown = 0;
      for (const row of group.querySelectorAll('tr[data-row]')) {
        const show = filter === 'all' || row.hasAttribute('data-' + filter);
        row.hidden = !show;
        if (show) shown += 1;
      }
      group.hidden = shown === 0;
    }
  };
  for (const button of buttons) button.addEventListener('click', () => apply(button.getAttribute('data-filter')));
  const bar = document.getElementById('filters');
  if (bar) bar.hidden = false;
})();
`;

/** The comparison's closing lines on the terminal (plain text; the terminal strips control characters). */
export function compareText(comparison: Comparison): string[] {
  const width = Math.min(40, Math.max(...comparison.implementations.map((i) => i.name.length)));
  const disagree = disagreements(comparison);
  return [
    ...comparison.implementations.map((i) => `${i.name.padEnd(width)}  ${VERDICT_WORD[i.report.verdict].padEnd(14)}  ${coverageLine(i.report.coverage)}`),
    `disagreements (passed by one, failed by another): ${disagree.length === 0 ? 'none' : `${disagree.length}: ${list(disagree.map((r) => r.id), 20)}`}`,
  ];
}

function list(ids: readonly string[], shown: number): string {
  return ids.length <= shown ? ids.join(', ') : `${ids.slice(0, shown).join(', ')} and ${ids.length - shown} more`;
}

// --- two runs of one implementation ----------------------------------------------

/**
 * How an outcome changed:
 *   new-failure      failing now (a failure that decides), not before
 *   new-warning      a warning now (a failure at a level that does not decide), passing or not exercised before
 *   fix              failing or a warning before, passing now
 *   coverage-lost    observed before (passed, failed or warned), not exercised now
 *   coverage-gained  not exercised before, passing now
 *   changed          any other change (skipped to not applicable, failed to warning, ...)
 */
type ChangeKind = 'new-failure' | 'new-warning' | 'fix' | 'coverage-lost' | 'coverage-gained' | 'changed';

interface Change {
  readonly id: string;
  readonly kind: ChangeKind;
  /** The status before and after; `absent` when that report has no such requirement or test. */
  readonly before: string;
  readonly after: string;
  /** Requirements: it decides the verdict in either run. Tests: always false. */
  readonly deciding: boolean;
  readonly level: string;
  /** The requirement's summary or the test's title. */
  readonly about: string;
  /** Why it is as it is now (or, for a fix, why it failed before). */
  readonly why: string;
}

interface ReportDiff {
  readonly before: CompareInput;
  readonly after: CompareInput;
  readonly sameTarget: boolean;
  readonly requirements: readonly Change[];
  readonly tests: readonly Change[];
  readonly warnings: readonly string[];
}

/** Observed: failing (a failure that decides), warning (one that does not), passing; or not exercised. */
type State = 'failing' | 'warning' | 'passing' | 'untested';

function requirementState(cell: Cell): State {
  return cell === 'passed' ? 'passing' : cell === 'failed' ? 'failing' : cell === 'warning' ? 'warning' : 'untested';
}

function testState(test: TestResult | undefined): State {
  if (test === undefined) return 'untested';
  if (test.status === 'passed') return 'passing';
  if (!observedFailure(test)) return 'untested';
  return shownOutcome(test) === 'warning' ? 'warning' : 'failing';
}

function testLabel(test: TestResult | undefined): string {
  if (test === undefined) return 'absent';
  return test.status === 'error' && test.error_code !== undefined ? `error ${test.error_code}` : shownOutcome(test);
}

function kindOf(before: State, after: State): ChangeKind {
  if (after === 'failing' && before !== 'failing') return 'new-failure';
  if (after === 'warning' && (before === 'passing' || before === 'untested')) return 'new-warning';
  if ((before === 'failing' || before === 'warning') && after === 'passing') return 'fix';
  if (before !== 'untested' && after === 'untested') return 'coverage-lost';
  if (before === 'untested' && after === 'passing') return 'coverage-gained';
  return 'changed';
}

const KIND_ORDER: readonly ChangeKind[] = ['new-failure', 'coverage-lost', 'new-warning', 'fix', 'coverage-gained', 'changed'];

/** The IDs of both lists, each once: the later report's order, then what only the earlier one has. */
function idsOf(before: readonly { readonly id: string }[], after: readonly { readonly id: string }[]): string[] {
  return [...new Set([...after.map((x) => x.id), ...before.map((x) => x.id)])];
}

export function diffReports(before: CompareInput, after: CompareInput): ReportDiff {
  const reqBefore = new Map(before.report.requirements.map((r) => [r.id, r]));
  const reqAfter = new Map(after.report.requirements.map((r) => [r.id, r]));
  const requirements: Change[] = [];
  for (const id of idsOf(before.report.requirements, after.report.requirements)) {
    const b = reqBefore.get(id);
    const a = reqAfter.get(id);
    if (cellOf(b) === cellOf(a)) continue;
    const kind = kindOf(requirementState(cellOf(b)), requirementState(cellOf(a)));
    const why = kind === 'fix' ? `before: ${b?.reason ?? ''}` : (a?.reason ?? (a === undefined ? 'not in the later report' : ''));
    const either = (a ?? b)!;
    requirements.push({ id, kind, before: cellOf(b), after: cellOf(a), deciding: b?.deciding === true || a?.deciding === true, level: either.level, about: either.summary, why: firstLine(why) });
  }
  const testBefore = new Map(before.report.tests.map((t) => [t.id, t]));
  const testAfter = new Map(after.report.tests.map((t) => [t.id, t]));
  const tests: Change[] = [];
  for (const id of idsOf(before.report.tests, after.report.tests)) {
    const b = testBefore.get(id);
    const a = testAfter.get(id);
    if (testLabel(b) === testLabel(a)) continue;
    const kind = kindOf(testState(b), testState(a));
    const either = (a ?? b)!;
    tests.push({ id, kind, before: testLabel(b), after: testLabel(a), deciding: false, level: either.level, about: either.title, why: kind === 'fix' ? `before: ${testWhy(b)}` : a === undefined ? 'not in the later report' : testWhy(a) });
  }
  const byKind = (x: Change, y: Change) => KIND_ORDER.indexOf(x.kind) - KIND_ORDER.indexOf(y.kind);
  const sameTarget = before.report.run.target.name === after.report.run.target.name;
  const warnings: string[] = [];
  if (!sameTarget) warnings.push(`the two reports are of different targets: ${before.report.run.target.name} before, ${after.report.run.target.name} after`);
  for (const [what, b, a] of [
    ['suite version', before.report.run.suite_version, after.report.run.suite_version],
    ['profile version', before.report.run.profile_version, after.report.run.profile_version],
  ] as const) {
    if (b !== a) warnings.push(`the runs used different ${what}s (${b} before, ${a} after): requirements and tests may differ for that reason alone`);
  }
  if (verdictRules(before.report) !== verdictRules(after.report)) {
    warnings.push(`the runs used different verdict rules (${verdictRules(before.report)} before, ${verdictRules(after.report)} after): a failure may decide in one and be a warning in the other`);
  }
  return { before, after, sameTarget, requirements: requirements.sort(byKind), tests: tests.sort(byKind), warnings };
}

/** Why a test is as it is: its failed checks, or its reason. */
function testWhy(test: TestResult | undefined): string {
  if (test === undefined) return '';
  const failed = test.checks.filter((c) => !c.passed).slice(0, 2);
  if (failed.length > 0) return firstLine(failed.map((c) => `${c.check} (${c.requirement}): ${c.message}`).join('; '));
  return firstLine(reasonText(test) ?? '');
}

/** Exit 1: a new failure (any requirement or test), or a deciding requirement no longer exercised; a new warning, like a warning in a run, does not fail. */
export function diffFails(diff: ReportDiff): boolean {
  return [...diff.requirements, ...diff.tests].some((c) => c.kind === 'new-failure') || diff.requirements.some((c) => c.kind === 'coverage-lost' && c.deciding);
}

const KIND_HEADING: Readonly<Record<ChangeKind, string>> = {
  'new-failure': 'New failures',
  'coverage-lost': 'Coverage lost (observed before, not exercised now)',
  'new-warning': 'New warnings (failing now at a level that does not decide; they do not fail the diff)',
  fix: 'Fixes',
  'coverage-gained': 'Coverage gained (not exercised before, passing now)',
  changed: 'Other changes',
};

function tally(diff: ReportDiff): string {
  const counts = KIND_ORDER.map((kind) => {
    const requirements = diff.requirements.filter((c) => c.kind === kind).length;
    const tests = diff.tests.filter((c) => c.kind === kind).length;
    return requirements + tests === 0 ? '' : `${KIND_WORD[kind]} ${requirements} requirement(s), ${tests} test(s)`;
  });
  return counts.filter((c) => c !== '').join('; ') || 'no change';
}

const KIND_WORD: Readonly<Record<ChangeKind, string>> = { 'new-failure': 'new failures', 'coverage-lost': 'coverage lost', 'new-warning': 'new warnings', fix: 'fixes', 'coverage-gained': 'coverage gained', changed: 'other changes' };

function conclusion(diff: ReportDiff): string {
  const warned = [...diff.requirements, ...diff.tests].filter((c) => c.kind === 'new-warning').length;
  const note = warned > 0 ? `; ${warned} new warning(s), which do not fail it` : '';
  if (!diffFails(diff)) return `no new failure, and every deciding requirement observed before is still exercised${note}`;
  const lost = diff.requirements.filter((c) => c.kind === 'coverage-lost' && c.deciding).length;
  const fresh = [...diff.requirements, ...diff.tests].filter((c) => c.kind === 'new-failure').length;
  return [fresh > 0 ? 'new failures' : '', lost > 0 ? `${lost} deciding requirement(s) no longer exercised` : ''].filter((s) => s !== '').join(' and ') + note;
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
