// report.html: a view of report.json in one self-contained file. Everything
// from the report goes through esc(); data is never placed in href, src, style
// or on* attributes, and the only script is ours, allowed by a per-file nonce.
import { randomBytes } from 'node:crypto';
import { stripControl } from '../text.ts';
import { displayValue, elideBlobs } from './json.ts';
import { alikeErrors } from './group.ts';
import type { CheckResult, Exchange, Report, RequirementResult, TestResult } from './model.ts';
import { answerLine } from './answer.ts';
import { withoutLocalPaths } from './paths.ts';
import { baselineNote, coverageLine, repeatNote, REQUIREMENT_STATUSES, shownOutcome, SHOWN_OUTCOMES, stabilityText, targetName, targetNotes, VERDICT_MEANING, VERDICT_WORD, WARNING_MEANING, reasonText } from './wording.ts';

// Not in esc(): noncharacters are HTML parse errors; shown as `\uXXXX` like controls.
const NONCHARACTER = /[\ufdd0-\ufdef\ufffe\uffff]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The one escaping function: any string becomes inert HTML text, safe in element
 * content and in double-quoted attributes. Control characters (ANSI escapes, bidi
 * overrides) become visible `\uXXXX`; lone surrogates become U+FFFD.
 */
function esc(value: string | number | boolean): string {
  return stripControl(String(value).toWellFormed().replace(/\r\n?/g, '\n'))
    .replace(NONCHARACTER, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
    .replace(/[&<>"']/g, (c) => ENTITY[c] ?? c);
}

/** The same escaping for other pages (the selftest kill matrix). */
export const escapeHtml = esc;

const SAFE_ID = /^[A-Za-z0-9_.-]+$/;

/**
 * A fragment ID for a report ID: `p-ID` when the ID is already safe, else `p_x`
 * and its UTF-8 hex (the `-`/`_x` split keeps the two forms from colliding).
 * The result always matches ^[A-Za-z0-9_.-]+$, so it is safe in id= and href="#".
 */
function anchor(prefix: 'r' | 't' | 'f', id: string): string {
  return SAFE_ID.test(id) ? `${prefix}-${id}` : `${prefix}_x${Buffer.from(id.toWellFormed(), 'utf8').toString('hex')}`;
}

function link(prefix: 'r' | 't' | 'f', id: string, cls = ''): string {
  return `<a href="#${anchor(prefix, id)}"${cls === '' ? '' : ` class="${cls}"`}>${esc(id)}</a>`;
}

/** Our class names come from fixed tables, never from data. */
function statusClass(status: string): string {
  return (REQUIREMENT_STATUSES as readonly string[]).includes(status) || (SHOWN_OUTCOMES as readonly string[]).includes(status) ? `s-${status}` : 's-unknown';
}

export function badge(status: string): string {
  return `<span class="badge ${statusClass(status)}">${esc(status.replace('-', ' '))}</span>`;
}

/**
 * The head of a self-contained page: no external resource, scripts only with
 * this page's nonce (so nothing the target wrote can run), no referrer.
 */
export function pageHead(nonce: string, title: string, css: string): string[] {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${css}</style>`,
    '</head>',
  ];
}

export function reportHtml(report: Report): string {
  const nonce = randomBytes(18).toString('base64');
  const known = report.verdict in VERDICT_WORD;
  const word = known ? VERDICT_WORD[report.verdict] : 'UNKNOWN';
  const meaning = known ? capitalised(VERDICT_MEANING[report.verdict]) : '';
  const verdictClass = known ? `v-${report.verdict}` : 'v-error';
  const note = baselineNote(report);
  const repeated = repeatNote(report);
  const failing = report.tests.filter((t) => shownOutcome(t) === 'failed' || t.status === 'error');
  return [
    ...pageHead(nonce, `cpr-conformance: ${word} (${withoutLocalPaths(report.run.target.name)})`, CSS),
    '<body>',
    `<header class="banner ${verdictClass}"><h1>${esc(word)}</h1><p>${esc(meaning)}${report.run.incomplete ? ' <strong>The run was cut short: results are partial.</strong>' : ''}</p><p class="coverage">${esc(capitalised(coverageLine(report.coverage)))}.</p>${note === undefined ? '' : `<p>${esc(capitalised(note))}.</p>`}${repeated === undefined ? '' : `<p class="repeat">Repeat: ${esc(repeated)}.</p>`}${targetNotes(report.run.target).map((line) => `<p class="target-note">Target: ${esc(line)}.</p>`).join('')}</header>`,
    '<main>',
    runSection(report),
    summarySection(report),
    errorsSection(report),
    baselineSection(report),
    failuresSection(failing),
    warningsSection(report.tests.filter((t) => shownOutcome(t) === 'warning')),
    matrixSection(report),
    testsSection(report.tests),
    '</main>',
    `<script nonce="${nonce}">${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ]
    .filter((part) => part !== '')
    .join('\n')
    .concat('\n');
}

function runSection(report: Report): string {
  const { run } = report;
  const facts: [string, string][] = [
    ['Target', esc(withoutLocalPaths(targetName(run.target)))],
    ['Suite version', esc(run.suite_version)],
    ['Profile version', esc(run.profile_version)],
    ['Spec versions', `CPR ${esc(run.spec_versions.cpr)}, CPP ${esc(run.spec_versions.cpp)}`],
    ['Started', esc(run.started_at)],
    ['Duration', esc(duration(run.duration_ms))],
    ['Seed', esc(run.seed)],
    ...(run.shard === undefined ? [] : [['Shard', esc(run.shard)] as [string, string]]),
    ...(run.repeat === undefined ? [] : [['Repeat', `each test ${esc(run.repeat)} times`] as [string, string]]),
    ['Strict', run.strict ? 'yes: SHOULD failures decide' : 'no: SHOULD failures are warnings'],
    ['PROFILE', run.profile_advisory ? 'advisory: PROFILE failures are warnings' : 'PROFILE failures decide'],
    ...(run.baseline === undefined ? [] : [['Baseline', esc(withoutLocalPaths(run.baseline))] as [string, string]]),
    ['Node', esc(run.node_version)],
    ['Command', `<code>${esc(withoutLocalPaths(run.command.join(' ')))}</code>`],
  ];
  const roles = Object.entries(run.target.roles).map(([role, r]) =>
    r === undefined
      ? ''
      : `<tr><td>${esc(role)}</td><td>${esc(r.adapter)}</td><td>${esc(r.base_url ?? '')}</td><td${r.tls === 'insecure' ? ' class="insecure"' : ''}>${esc(r.tls)}</td><td>${esc(r.capabilities.join(', '))}</td></tr>`,
  );
  return [
    '<section id="run"><h2>Run</h2>',
    `<dl class="facts">${facts.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${v}</dd></div>`).join('')}</dl>`,
    roles.length === 0 ? '' : `<table class="compact"><thead><tr><th>Role</th><th>Adapter</th><th>Base URL</th><th>TLS</th><th>Capabilities</th></tr></thead><tbody>${roles.join('')}</tbody></table>`,
    '</section>',
  ].join('\n');
}

function summarySection(report: Report): string {
  const s = report.summary;
  const tests: [string, number][] = [
    ['total', s.total],
    ['passed', s.passed],
    ['failed', s.failed],
    ['warning', s.warned],
    ['skipped', s.skipped],
    ['not-applicable', s.not_applicable],
    ['error', s.error],
  ];
  const cell = ([label, n]: [string, number], href?: string) => {
    const inner = `<span class="n">${esc(n)}</span><span class="l">${esc(label.replace('-', ' '))}</span>`;
    return `<div class="count ${statusClass(label)}-text">${href === undefined ? inner : `<a href="${href}">${inner}</a>`}</div>`;
  };
  // The failed, errored and warned counts lead to their details, which follow the summary.
  const details: Readonly<Record<string, string>> = { failed: '#failures', error: '#failures', warning: '#warnings' };
  const testCell = (entry: [string, number]) => cell(entry, entry[1] > 0 ? details[entry[0]] : undefined);
  const requirements = REQUIREMENT_STATUSES.map((status) => [status, report.requirements.filter((r) => r.status === status).length] as [string, number]);
  return [
    '<section id="summary"><h2>Summary</h2>',
    `<h3>Tests</h3><div class="counts">${tests.map(testCell).join('')}</div>`,
    `<h3>Requirements</h3><div class="counts">${cell(['total', report.requirements.length])}${requirements.map((entry) => cell(entry)).join('')}</div>`,
    '</section>',
  ].join('\n');
}

function errorsSection(report: Report): string {
  if (report.errors.length === 0) return '';
  return `<section id="harness-errors"><h2>Harness errors</h2><ul>${report.errors.map((e) => `<li><code>${esc(e.code)}</code> ${esc(e.message)}</li>`).join('')}</ul></section>`;
}

function baselineSection(report: Report): string {
  const diff = report.baseline_diff;
  if (diff === undefined) return '';
  const list = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.map((id) => link('t', id)).join(', '));
  return `<section id="baseline"><h2>Against the baseline</h2><p>New failures: ${list(diff.new_failures)}</p><p>Unexpected passes: ${list(diff.unexpected_passes)}</p></section>`;
}

// --- requirement matrix, by spec section ---------------------------------

/** Requirements grouped by their first section, sections in numeric order: spec sections, then PROFILE, then none. */
export function sectionGroups(requirements: readonly RequirementResult[]): [string, RequirementResult[]][] {
  const groups = new Map<string, RequirementResult[]>();
  for (const r of requirements) {
    const key = r.sections[0] ?? '(no section)';
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups].sort(([a], [b]) => compareSections(a, b));
}

function sectionKey(section: string): [number, number[]] {
  const kind = section.startsWith('PROFILE') ? 1 : section.includes('§') ? 0 : 2;
  const numbers = (/§\s*([0-9.]+)/.exec(section)?.[1] ?? '').split('.').filter((n) => n !== '').map(Number);
  return [kind, numbers];
}

function compareSections(a: string, b: string): number {
  const [ka, na] = sectionKey(a);
  const [kb, nb] = sectionKey(b);
  if (ka !== kb) return ka - kb;
  for (let i = 0; i < Math.max(na.length, nb.length); i++) {
    const x = na[i] ?? -1;
    const y = nb[i] ?? -1;
    if (x !== y) return x - y;
  }
  return a.localeCompare(b);
}

function matrixSection(report: Report): string {
  const tests = new Map(report.tests.map((t) => [t.id, t]));
  const testLink = (id: string) => {
    const t = tests.get(id);
    if (t === undefined || !detailed(t)) return link('t', id);
    return link('f', id, shownOutcome(t) === 'warning' ? 'warn' : 'bad');
  };
  const buttons = [
    `<button type="button" data-filter="all" aria-pressed="true">all (${report.requirements.length})</button>`,
    ...REQUIREMENT_STATUSES.map(
      (s) => `<button type="button" data-filter="${s}" aria-pressed="false" class="${statusClass(s)}-text">${s.replace('-', ' ')} (${report.requirements.filter((r) => r.status === s).length})</button>`,
    ),
  ];
  const body = sectionGroups(report.requirements).map(
    ([section, rows]) =>
      `<tbody><tr class="section"><th colspan="6" scope="colgroup">${esc(section)}</th></tr>\n${rows
        .map(
          (r) =>
            `<tr id="${anchor('r', r.id)}" data-status="${esc(statusClass(r.status).slice(2))}"><td class="id">${esc(r.id)}</td><td>${esc(r.level)}${r.deciding ? '' : ' <span class="muted">(not deciding)</span>'}</td><td>${esc(r.roles.join(', '))}</td><td>${esc(r.summary)}${
              r.sections.length > 1 ? ` <span class="muted">(${esc(r.sections.join(', '))})</span>` : ''
            }${r.reason === undefined || r.status === 'passed' ? '' : `<br><span class="muted">${esc(r.reason)}</span>`}${r.unverifiable === undefined ? '' : `<br><span class="muted">Not observable from outside: ${esc(r.unverifiable)}</span>`}</td><td>${badge(r.status)}</td><td>${r.tests.length === 0 ? '<span class="muted">none</span>' : r.tests.map(testLink).join(' ')}</td></tr>`,
        )
        .join('\n')}</tbody>`,
  );
  return [
    '<section id="requirements"><h2>Requirements by spec section</h2>',
    // Hidden until our script runs: without it (scripts off, or blocked) the buttons would do nothing.
    `<div class="filters" id="filters" data-table="matrix" role="group" aria-label="Show requirements with status" hidden>${buttons.join('')}</div>`,
    '<table id="matrix"><thead><tr><th>ID</th><th>Level</th><th>Roles</th><th>Summary</th><th>Status</th><th>Tests</th></tr></thead>',
    body.join('\n'),
    '</table>',
    '<p id="matrix-empty" class="muted" hidden>No requirement has this status.</p>',
    '</section>',
  ].join('\n');
}

// --- failures ----------------------------------------------------------------

/** A test with an entry of its own under Failed tests or Tests with warnings. */
function detailed(test: TestResult): boolean {
  return test.status === 'failed' || test.status === 'error';
}

function failuresSection(failing: readonly TestResult[]): string {
  if (failing.length === 0) return '';
  const { groups, single } = alikeErrors(failing);
  return ['<section id="failures"><h2>Failed tests</h2>', ...groups.map(errorGroupArticle), ...single.map(failureArticle), '</section>'].join('\n');
}

/** The tests whose every failure is a warning: detailed as failures are, under their own heading. */
function warningsSection(warned: readonly TestResult[]): string {
  if (warned.length === 0) return '';
  return ['<section id="warnings"><h2>Tests with warnings</h2>', `<p class="muted">Each failed only at a level that does not decide: ${esc(WARNING_MEANING)}.</p>`, ...warned.map(failureArticle), '</section>'].join('\n');
}

/** Tests that errored alike (an unreachable target, say): one entry for all of them. */
function errorGroupArticle(tests: readonly TestResult[]): string {
  const first = tests[0]!;
  return [
    '<article class="failure">',
    `<h3>${badge('error')} ${esc(tests.length)} tests: harness error <code>${esc(first.error_code ?? 'unknown')}</code></h3>`,
    '<p class="reason">Not a conformance result.</p>',
    first.reason === undefined ? '' : `<p class="reason">${esc(reasonText(first) ?? '')}</p>`,
    `<ul class="ids">${tests.map((t) => `<li id="${anchor('f', t.id)}">${link('t', t.id)} ${esc(t.title)}</li>`).join('')}</ul>`,
    '</article>',
  ]
    .filter((part) => part !== '')
    .join('\n');
}

function failureArticle(test: TestResult): string {
  const failed = test.checks.filter((c) => !c.passed);
  const passed = test.checks.filter((c) => c.passed);
  return [
    `<article class="failure${shownOutcome(test) === 'warning' ? ' warning' : ''}" id="${anchor('f', test.id)}">`,
    `<h3>${badge(shownOutcome(test))}${stabilityBadge(test)} <span class="id">${esc(test.id)}</span> ${esc(test.title)}</h3>`,
    `<p class="meta">${esc(withoutLocalPaths(test.file))} · ${esc(test.kind)} · ${esc(test.role)} · ${esc(test.level)} · ${esc(test.sections.join(', '))} · requirements ${test.requirements.map((id) => link('r', id)).join(' ')} · ${esc(duration(test.duration_ms))}</p>`,
    test.known_failure ? '<p class="reason">A known failure: the baseline lists it. It is still an observed failure.</p>' : '',
    test.error_code === undefined
      ? ''
      : test.error_code === 'HARNESS_SETUP_FAILED'
        ? `<p class="reason">Setup failed <code>${esc(test.error_code)}</code>: the failed check proves the setup step's own requirement; the requirements under test were not exercised.</p>`
        : `<p class="reason">Harness error <code>${esc(test.error_code)}</code>: not a conformance result.</p>`,
    test.reason === undefined ? '' : `<p class="reason">${esc(reasonText(test) ?? '')}</p>`,
    test.repeat === undefined ? '' : `<p class="meta">Runs: ${esc(stabilityText(test) ?? '')}; the evidence here is the first run that ended ${esc(test.status)}.</p>`,
    test.seed === undefined && test.path === undefined ? '' : `<p class="meta">property seed <code>${esc(test.seed ?? '')}</code> path <code>${esc(test.path ?? '')}</code></p>`,
    ...failed.map((c) => checkBlock(test, c)),
    passed.length === 0 ? '' : `<p class="meta">Passed checks: ${passed.map((c) => `${esc(c.check)} (${link('r', c.requirement)})`).join(', ')}</p>`,
    test.transcript.length === 0 ? '' : `<details class="transcript" open><summary>Transcript (${test.transcript.length} exchange${test.transcript.length === 1 ? '' : 's'})</summary>\n${test.transcript.map(exchangeBlock).join('\n')}</details>`,
    `<p class="rerun-label">Rerun alone:</p><pre class="rerun">\n${esc(withoutLocalPaths(test.rerun))}</pre>`,
    '</article>',
  ]
    .filter((part) => part !== '')
    .join('\n');
}

function checkBlock(test: TestResult, c: CheckResult): string {
  const answer = answerLine(test, c);
  return [
    '<div class="check">',
    `<p><strong>${esc(c.check)}</strong> · ${link('r', c.requirement)} (${esc(c.level)})${c.step === undefined ? '' : ` · step ${esc(c.step)}`}: ${esc(c.message)}</p>`,
    answer === undefined ? '' : `<p class="answer">The target answered: <code>${esc(answer)}</code></p>`,
    `<div class="ea"><div><h4>Expected</h4><pre>\n${esc(displayValue(c.expected))}</pre></div><div><h4>Actual</h4><pre>\n${esc(displayValue(c.actual))}</pre></div></div>`,
    '</div>',
  ]
    .filter((part) => part !== '')
    .join('\n');
}

function exchangeBlock(e: Exchange): string {
  const headers = (h: Readonly<Record<string, string>>) => Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n');
  const message = (head: Readonly<Record<string, string>>, body: string | undefined, truncated = false) => {
    const parts = [headers(head), elideBlobs(body ?? '')].filter((p) => p !== '').map(esc);
    if (parts.length === 0 && !truncated) return '';
    return `<pre>\n${parts.join('\n\n')}${truncated ? '\n<span class="muted">[body truncated]</span>' : ''}</pre>`;
  };
  return [
    '<div class="exchange">',
    `<p class="line">${e.step === undefined ? 'before the steps' : `step ${esc(e.step)}`} · ${esc(e.role)} · <code>${esc(e.request.method)} ${esc(e.request.url)}</code></p>`,
    message(e.request.headers, e.request.body),
    e.response === undefined ? '' : `<p class="line">response <strong>${esc(e.response.status)}</strong> · ${esc(e.duration_ms)} ms</p>`,
    e.response === undefined ? '' : message(e.response.headers, e.response.body, e.response.truncated === true),
    e.error === undefined ? '' : `<p class="line bad">transport error after ${esc(e.duration_ms)} ms: ${esc(e.error)}</p>`,
    '</div>',
  ]
    .filter((part) => part !== '')
    .join('\n');
}

// --- all tests -----------------------------------------------------------------

function testsSection(tests: readonly TestResult[]): string {
  const rows = tests.map((t) => {
    const shown = shownOutcome(t);
    const status = (detailed(t) ? `<a href="#${anchor('f', t.id)}">${badge(shown)}</a>` : badge(shown)) + stabilityBadge(t);
    const note = t.reason === undefined ? '' : ` <span class="muted">${esc(reasonText(t) ?? '')}</span>`;
    return `<tr id="${anchor('t', t.id)}" data-status="${esc(statusClass(shown).slice(2))}"><td class="id">${esc(t.id)}</td><td>${esc(t.title)}${note}</td><td>${esc(withoutLocalPaths(t.file))}</td><td>${t.requirements.map((id) => link('r', id)).join(' ')}</td><td>${status}</td><td class="num">${esc(duration(t.duration_ms))}</td></tr>`;
  });
  const buttons = [
    `<button type="button" data-filter="all" aria-pressed="true">all (${tests.length})</button>`,
    ...SHOWN_OUTCOMES.map((o) => `<button type="button" data-filter="${o}" aria-pressed="false" class="${statusClass(o)}-text">${o.replace('-', ' ')} (${tests.filter((t) => shownOutcome(t) === o).length})</button>`),
  ];
  return [
    '<section id="tests"><h2>All tests</h2>',
    `<div class="filters" id="test-filters" data-table="test-table" role="group" aria-label="Show tests with outcome" hidden>${buttons.join('')}</div>`,
    '<table class="compact" id="test-table"><thead><tr><th>ID</th><th>Title</th><th>File</th><th>Requirements</th><th>Outcome</th><th>Time</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody></table>`,
    '<p id="test-table-empty" class="muted" hidden>No test has this outcome.</p>',
    '</section>',
  ].join('\n');
}

/** A repeated test's stability beside its outcome: a badge when flaky, else a quiet note. */
function stabilityBadge(test: TestResult): string {
  const r = test.repeat;
  if (r === undefined) return '';
  const title = esc(stabilityText(test) ?? '');
  return r.stability === 'flaky' ? ` <span class="badge s-flaky" title="${title}">flaky ${esc(r.passed)}/${esc(r.runs)}</span>` : ` <span class="muted" title="${title}">${esc(r.stability)} ×${esc(r.runs)}</span>`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

// Neither CSS nor SCRIPT contains `<`: nothing in them can end their element early.
export const CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--head:#f6f8fa;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--skip:#6e7781;--na:#8250df;--unc:#bc4c00}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--head:#151b23;--ok:#3fb950;--bad:#f85149;--warn:#d29922;--skip:#9198a1;--na:#a371f7;--unc:#db6d28}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:1280px;margin:0 auto;padding:0 16px 48px}
h2{font-size:18px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:16px 0 6px}
h4{font-size:12px;margin:6px 0 2px;color:var(--muted);text-transform:uppercase;letter-spacing:.05em}
a{color:inherit}
a.bad{color:var(--bad);font-weight:600}
a.warn{color:var(--warn);font-weight:600}
code,pre,.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12px}
pre{background:var(--head);border:1px solid var(--line);border-radius:4px;padding:6px 8px;margin:2px 0 8px;overflow:auto;max-height:32em;white-space:pre-wrap;overflow-wrap:anywhere}
.banner{padding:16px max(16px,calc((100% - 1248px)/2));color:#fff}
.banner h1{margin:0;font-size:26px;letter-spacing:.05em}
.banner p{margin:4px 0 0}
.v-conformant{background:#1a7f37}.v-incomplete{background:#9a6700}.v-non-conformant{background:#cf222e}.v-error{background:#57606a}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:2px 16px;margin:0 0 8px}
.facts div{display:flex;gap:8px}.facts dt{color:var(--muted);min-width:110px}.facts dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;margin:4px 0 8px}
th,td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
thead th{background:var(--head);position:sticky;top:0;z-index:1}
tr.section th{background:var(--head);padding-top:10px;font-size:13px}
td.num{text-align:right;white-space:nowrap}
td.id,span.id{white-space:nowrap}
td.insecure{color:var(--bad);font-weight:600}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:0 7px;border-radius:9px;font-size:11px;font-weight:600;line-height:18px;color:#fff;white-space:nowrap}
.s-flaky{background:var(--warn)}.s-passed{background:var(--ok)}.s-failed,.s-error{background:var(--bad)}.s-warning{background:var(--warn)}.s-skipped,.s-not-reached,.s-not-run,.s-unknown{background:var(--skip)}.s-not-applicable{background:var(--na)}.s-uncovered{background:var(--unc)}
.s-passed-text{color:var(--ok)}.s-failed-text,.s-error-text{color:var(--bad)}.s-warning-text{color:var(--warn)}.s-skipped-text,.s-not-reached-text,.s-not-run-text{color:var(--skip)}.s-not-applicable-text{color:var(--na)}.s-uncovered-text{color:var(--unc)}
.counts{display:flex;flex-wrap:wrap;gap:8px}
.count{border:1px solid var(--line);border-radius:6px;padding:4px 12px;min-width:88px}
.count .n{display:block;font-size:20px;font-weight:600}.count .l{font-size:12px;color:var(--muted)}.count a{color:inherit;text-decoration:none;display:block}.count a .l{text-decoration:underline}
.filters{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0}
.filters button{font:inherit;font-size:12px;padding:2px 10px;border:1px solid var(--line);border-radius:12px;background:var(--bg);cursor:pointer}
.filters button[aria-pressed="true"]{background:var(--fg);color:var(--bg)}
.failure{border:1px solid var(--line);border-left:4px solid var(--bad);border-radius:4px;padding:4px 12px 8px;margin:12px 0}
.failure.warning{border-left-color:var(--warn)}
.meta{color:var(--muted);font-size:12px;margin:2px 0}
.reason{margin:4px 0}
.check{margin:8px 0}.check p{margin:4px 0}
.ea{display:grid;grid-template-columns:1fr 1fr;gap:8px}
@media (max-width:800px){.ea{grid-template-columns:1fr}}
.exchange{margin:6px 0 10px}.exchange .line{margin:2px 0;font-size:12px}.line.bad{color:var(--bad)}
.rerun-label{margin:8px 0 0;font-size:12px;color:var(--muted)}
details summary{cursor:pointer;color:var(--muted);font-size:12px;margin:6px 0}
`;

// Each filter bar shows the rows of its table (data-table) with one status:
// rows and whole groups (tbody) are hidden; with scripts off everything stays
// visible. The requirement matrix filters by requirement status, the test list
// by shown outcome (a warning apart from a failure).
const SCRIPT = `
(() => {
  'use strict';
  for (const bar of document.querySelectorAll('.filters[data-table]')) {
    const table = bar.getAttribute('data-table');
    const buttons = [...bar.querySelectorAll('button[data-filter]')];
    const groups = [...document.querySelectorAll('#' + table + ' tbody')];
    const empty = document.getElementById(table + '-empty');
    const apply = (filter) => {
      for (const button of buttons) button.setAttribute('aria-pressed', String(button.getAttribute('data-filter') === filter));
      let visible = 0;
      for (const group of groups) {
        let shown = 0;
        for (const row of group.querySelectorAll('tr[data-status]')) {
          const show = filter === 'all' || row.getAttribute('data-status') === filter;
          row.hidden = !show;
          if (show) shown += 1;
        }
        group.hidden = shown === 0;
        visible += shown;
      }
      if (empty) empty.hidden = visible !== 0;
    };
    for (const button of buttons) button.addEventListener('click', () => apply(button.getAttribute('data-filter')));
    bar.hidden = false;
  }
})();
`;
