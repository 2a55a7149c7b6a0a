// The kill matrix as terminal text, JSON and a self-contained HTML page.
import { escapeHtml } from '../report/html.ts';
import type { KillMatrix, MutantRow } from './matrix.ts';
import { fuzzerLine, summaryLine, unavailableLine } from './matrix.ts';

/** A fuzzer mutant's row: what the suite made of it, never a kill or a survival. */
const informationText = (m: MutantRow): string => (m.killed ? `information: tests of ${m.caught_by.join(', ') || '-'} failed against it` : m.errors.length > 0 ? `information: ${m.errors.length} test(s) could not run against it, none failed` : 'information: no test of the suite failed against it');

export function matrixText(matrix: KillMatrix): string {
  const width = Math.max(...[...matrix.mutants, ...matrix.fuzzer.informational].map((m) => m.name.length), 10);
  const lines = [
    `reference: ${matrix.reference.conformant ? 'conformant' : 'NOT conformant'} (${matrix.reference.tests} tests, ${(matrix.reference.duration_ms / 1000).toFixed(1)} s)`,
    ...matrix.reference.not_passed.map((t) => `  not passed: ${t}`),
    ...(matrix.reach !== undefined && matrix.mutants.length > 0 ? [reachLine(matrix)] : []),
  ];
  // A selftest of fuzzer mutants alone has no matrix to head.
  if (matrix.mutants.length > 0 || matrix.fuzzer.informational.length === 0) lines.push('', `${'mutant'.padEnd(width)}  result    caught by (registry IDs)`);
  for (const m of matrix.mutants) {
    const result = m.killed ? (m.flagged ? 'killed?' : 'killed') : 'SURVIVED';
    lines.push(`${m.name.padEnd(width)}  ${result.padEnd(8)}  ${m.caught_by.join(', ') || '-'}`);
    if (m.flagged) lines.push(`${''.padEnd(width)}  !         ${m.flagged}`);
  }
  if (matrix.fuzzer.informational.length > 0) lines.push('', `${'fuzzer mutant'.padEnd(width)}  not required of the suite`);
  for (const m of matrix.fuzzer.informational) lines.push(`${m.name.padEnd(width)}  ${informationText(m)}`);
  const fuzzer = fuzzerLine(matrix);
  const unavailable = unavailableLine(matrix);
  lines.push('', summaryLine(matrix), ...(unavailable ? [unavailable] : []), ...(fuzzer ? [fuzzer] : []));
  return `${lines.join('\n')}\n`;
}

/** How much of the suite the full matrix ran against each mutant (reachingPlan). */
function reachLine(matrix: KillMatrix): string {
  const ran = matrix.mutants.reduce((sum, m) => sum + m.tests, 0);
  const left = matrix.mutants.reduce((sum, m) => sum + (m.unreached ?? 0), 0);
  const atOpen = matrix.mutants.filter((m) => matrix.reach!.at_open.includes(m.name)).length;
  return `each mutant ran the tests that reach its switch in the reference, those of its requirements and its role's racing tests: ${ran} test runs, ${left} left out that never ask for its switch (${atOpen} mutant(s) whose switch is asked while the target opens ran every test)`;
}

export function matrixHtml(matrix: KillMatrix): string {
  const rows = matrix.mutants
    .map(
      (m) => `<tr class="${m.killed && !m.flagged ? 'killed' : 'survived'}"><td><code>${escapeHtml(m.name)}</code></td><td>${escapeHtml(m.role)}</td><td>${escapeHtml(m.family)}</td><td>${escapeHtml(m.description)}</td><td>${escapeHtml(m.catches.join(', '))}</td><td>${m.killed ? (m.flagged ? 'killed (flagged)' : 'killed') : 'SURVIVED'}</td><td>${escapeHtml(m.caught_by.join(', '))}</td><td>${escapeHtml(m.flagged ?? '')}</td></tr>`,
    )
    .join('\n');
  const fuzzer = fuzzerLine(matrix);
  const information = matrix.fuzzer.informational.map((m) => `<li><code>${escapeHtml(m.name)}</code>: ${escapeHtml(informationText(m))}</li>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>cpr-conformance selftest: kill matrix</title>
<style>body{font:14px system-ui,sans-serif;margin:1.5rem}table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}tr.survived{background:#fde2e2}tr.killed td:nth-child(6){color:#176b2c;font-weight:600}code{font-size:13px}</style></head>
<body><h1>${escapeHtml(summaryLine(matrix))}</h1>
<p>Each mutant is the reference with one fault switched on. It is killed when a check of the suite fails against it; "caught by" lists the registry requirements whose checks failed. A mutant caught only by requirements it does not declare is flagged. Seed ${matrix.seed}; ${(matrix.duration_ms / 1000).toFixed(1)} s.</p>
<table><thead><tr><th>mutant</th><th>role</th><th>family</th><th>fault</th><th>should be caught by</th><th>result</th><th>caught by</th><th>note</th></tr></thead><tbody>
${rows}
</tbody></table>${fuzzer ? `\n<p>${escapeHtml(fuzzer)}</p>` : ''}${information ? `\n<ul>\n${information}\n</ul>` : ''}</body></html>
`;
}
