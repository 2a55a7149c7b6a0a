// The comparison as one HTML page (compare.html): escaped exactly as report.html
// is, its script and style under a nonce.
import { randomBytes } from 'node:crypto';
import { badge, CSS, escapeHtml as esc, pageHead } from '../html.ts';
import type { RequirementResult, Verdict } from '../model.ts';
import { coverageLine, VERDICT_WORD } from '../wording.ts';
import { firstLine } from './input.ts';
import { disagreements, type Comparison } from './matrix.ts';
import { DISAGREE_TEXT } from './wording.ts';

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
