// The terminal view of a run: each result as it ends (runner/terminal.ts) and the
// closing lines (cli/summary.ts). A test whose every failure is a warning is
// shown as WARN and counted apart, never as FAIL.
import { describe, expect, it } from 'vitest';
import { misplacedOperatorHint, printSummary } from '../../harness/cli/summary.ts';
import { createTerminal, type Terminal } from '../../harness/runner/terminal.ts';
import { shownOutcome, SHOWN_OUTCOMES, type ShownOutcome } from '../../harness/report/wording.ts';
import { buildReport, WARNING_CASES } from './report/fixture.ts';

/** A stream that keeps what is written: a terminal (live progress) or a pipe (a line per result). */
function stream(tty: boolean): { written: () => string; stream: NodeJS.WriteStream } {
  let out = '';
  const fake = { isTTY: tty, columns: 200, write: (chunk: string) => ((out += chunk), true) };
  return { written: () => out, stream: fake as unknown as NodeJS.WriteStream };
}

/** Every result of a report, as the run hands them to the terminal one by one. */
function progressOf(tty: boolean, options: Parameters<typeof buildReport>[0]): string {
  const report = buildReport(options);
  const out = stream(tty);
  const terminal = createTerminal(out.stream, { NO_COLOR: '1' }, out.stream);
  const counts = Object.fromEntries(SHOWN_OUTCOMES.map((o) => [o, 0])) as Record<ShownOutcome, number>;
  report.tests.forEach((t, i) => {
    counts[shownOutcome(t)]++;
    terminal.progress(i + 1, report.tests.length, t, counts);
  });
  terminal.endProgress();
  return out.written();
}

function closingLines(options: Parameters<typeof buildReport>[0]): string[] {
  const lines: string[] = [];
  const terminal: Terminal = { progress: () => undefined, endProgress: () => undefined, line: (text) => void lines.push(text), error: (text) => void lines.push(text) };
  printSummary(buildReport(options), 'reports/x', terminal, ['report.json']);
  return lines;
}

describe('the terminal', () => {
  it.each(WARNING_CASES)('prints %s (%s) as %s, one plain line per result', (_name, id, shown, options) => {
    const line = progressOf(false, options).split('\n').find((l) => l.includes(` ${id} `));
    expect(line?.slice(0, 5)).toBe(shown === 'warning' ? 'WARN ' : 'FAIL ');
  });

  it.each(WARNING_CASES)('notes %s (%s) as %s above the live progress line, and counts warnings apart', (_name, id, shown, options) => {
    const out = progressOf(true, options);
    expect(out).toContain(`${shown === 'warning' ? 'WARN' : 'FAIL'} ${id} `);
    const s = buildReport(options).summary;
    expect(out).toContain(`✓ ${s.passed}  ✗ ${s.failed}  ! ${s.warned}  skipped`);
  });

  it.each(WARNING_CASES)('closes with %s (%s) as %s, and the tests line counts warnings apart', (_name, id, shown, options) => {
    const lines = closingLines(options);
    expect(lines.find((l) => l.endsWith(` ${id} ${buildReport(options).tests.find((t) => t.id === id)!.title}`))?.split(' ')[0]).toBe(shown === 'warning' ? 'WARN' : 'FAIL');
    const s = buildReport(options).summary;
    expect(lines).toContain(`tests: ${s.total} — ${s.passed} passed, ${s.failed} failed, ${s.warned} warnings, ${s.skipped} skipped, ${s.not_applicable} not applicable, ${s.error} errors`);
    expect(s.warned).toBe(buildReport(options).tests.filter((t) => t.warning).length);
  });

  it('hints at a base path when both well-known documents answered 404 at the Operator\'s base URL, and only then', () => {
    const answered = (status: number, path: string) => ({ path, status });
    const withFacts = (policy: number, key: number) => {
      const report = buildReport({});
      return { ...report, run: { ...report.run, target: { ...report.run.target, facts: { operator: { policy: answered(policy, '/.well-known/cashpack-policy.json'), key: answered(key, '/.well-known/cashpack-pubkey.json') } } } } };
    };
    expect(misplacedOperatorHint(withFacts(404, 404))).toBe(
      'hint: https://operator.example.test answered 404 for both /.well-known/cashpack-policy.json and /.well-known/cashpack-pubkey.json; an implementation served under a base path is given with it, e.g. --target https://operator.example.test/your/base/path',
    );
    expect(misplacedOperatorHint(withFacts(404, 200))).toBeUndefined();
    expect(misplacedOperatorHint(withFacts(200, 404))).toBeUndefined();
    expect(misplacedOperatorHint(buildReport({}))).toBeUndefined();
  });

  it('names what a warning is beside the requirements that warned', () => {
    expect(closingLines({})).toContain('warnings: CPR-ID-2 — each a failure at a level that does not decide this run (SHOULD without --strict, PROFILE under --profile-advisory, MAY): it does not change the verdict');
    expect(closingLines({ strict: true }).some((l) => l.startsWith('warnings:'))).toBe(false);
  });

  it('says once per role the target does not have that its tests do not apply, then goes on a line per result', () => {
    const base = buildReport({}).tests.find((t) => t.status === 'not-applicable')!;
    const missing = ['PROP-APP-001', 'TOK-TLS-003', 'PROP-APP-002'].map((id, i) => ({ ...base, id, role: 'paying-app' as const, reason: i === 1 ? 'step 3: the target has no paying-app role' : 'the target has no paying-app role' }));
    const lines = progressOf(false, { tests: [...missing, ...buildReport({}).tests] }).split('\n');
    expect(lines.filter((l) => l.includes('paying-app'))).toEqual(['N/A  every paying-app test: the target has no paying-app role (said once; counted at the end)']);
    expect(lines.some((l) => l.startsWith('N/A  TOK-TLS-001 '))).toBe(true);
  });

  it('shows under a failure each failed check and what the target answered at its step', () => {
    const lines = closingLines({});
    const at = lines.findIndex((l) => l.startsWith('FAIL CPR-ID-001 '));
    expect(lines.slice(at + 1, at + 3)).toEqual([
      '     problem (CPR-ID-1) at step 2: problem code is <img src=x onerror=alert(1)>',
      expect.stringMatching(/^ {7}answer: POST \/v1\/cpr answered 400, body ```/),
    ]);
  });
});
