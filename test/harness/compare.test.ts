// `compare` and `compare --diff` on real reports: the suite run against the
// embedded reference and two of its mutants whose faults break different
// requirements, each written as report.json, then compared by the command line.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadRegistry } from '../../profile/registry.ts';
import { MUTANTS } from '../../reference/mutants.ts';
import { assess, observedFailure, REPORT_SCHEMA_VERSION, writeJsonReport, type Report, type TestResult } from '../../harness/report/index.ts';
import { suiteAgainst } from '../../harness/selftest/selftest.ts';
import { SPEC_VERSIONS, SUITE_VERSION } from '../../harness/version.ts';
import { compare } from '../../harness/cli/compare.ts';
import { cliHere, type CliResult } from './hostile/support.ts';
import { referenceResults } from '../support/reference-run.ts';

vi.setConfig({ testTimeout: 60_000 });

const MEMO = 'app-memo-141-accepted';
const TOKEN = 'payee-token-reusable';
const REFERENCE = 'embedded reference';
const HOSTILE_NAME = '../../<script>alert(1)</script> | **bold** [x](javascript:alert(1)) \u001b[31mred';

const dir = mkdtempSync(join(tmpdir(), 'cpr-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const reports = new Map<string, Report>();
const at = (name: string) => join(dir, name);

/** A report as `run` builds one (aggregate.ts), for results of the embedded reference. */
function reportOf(results: readonly TestResult[], targetName: string, run: Partial<Report['run']> = {}): Report {
  // JSON-safe as run.ts makes them: no undefined expected/actual, no bigints.
  const tests = JSON.parse(
    JSON.stringify(
      results.map((t) => ({ ...t, checks: t.checks.map((c) => ({ ...c, expected: c.expected ?? null, actual: c.actual ?? null })) })),
      (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v),
    ),
  ) as TestResult[];
  const assessed = assess(loadRegistry(), tests, [], { strict: false });
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    verdict: assessed.verdict,
    run: {
      suite_version: SUITE_VERSION,
      profile_version: 'CPP-PROFILE-1.0',
      spec_versions: SPEC_VERSIONS,
      target: { name: targetName, embedded: true, roles: { payee: { adapter: 'http', tls: 'in-process', capabilities: [] } } },
      seed: 20261121,
      started_at: '2026-01-01T00:00:00.000Z',
      duration_ms: 1,
      node_version: process.version,
      strict: false,
      profile_advisory: false,
      allow_partial: false,
      selection: { only: [], roles: [] },
      command: ['cpr-conformance', 'run'],
      incomplete: false,
      ...run,
    },
    summary: assessed.summary,
    coverage: assessed.coverage,
    requirements: assessed.requirements,
    tests: assessed.tests,
    errors: [],
  };
}

function save(name: string, report: Report): Report {
  writeJsonReport(at(name), report);
  reports.set(name, report);
  return report;
}

const failing = (report: Report) => report.requirements.filter((r) => r.status === 'failed' || r.status === 'warning').map((r) => r.id);

beforeAll(async () => {
  const reference = [...(await referenceResults())];
  const memo = (await suiteAgainst(MEMO)).results;
  const token = (await suiteAgainst(TOKEN)).results;
  save('reference', reportOf(reference, REFERENCE));
  save(MEMO, reportOf(memo, MEMO));
  save(TOKEN, reportOf(token, TOKEN));
  // One implementation, two runs: the main branch (the reference) and a pull request (the memo fault).
  save('acme-main', reportOf(reference, 'acme-pay'));
  save('acme-pr', reportOf(memo, 'acme-pay'));
  // A pull request after which the one-time-token tests no longer run (a capability lost).
  const once = new Set(reports.get('reference')!.requirements.find((r) => r.id === 'TOK-ONCE-1')!.tests);
  save('acme-lost', reportOf(reference.map((t) => (once.has(t.id) ? { ...t, status: 'skipped' as const, reason: 'the target cannot provision', checks: [], transcript: [] } : t)), 'acme-pay'));
  save('hostile', reportOf(reference, HOSTILE_NAME));
  save('hostile-again', reportOf(memo, HOSTILE_NAME, { suite_version: '0.0.9' }));
  writeFileSync(at('v1.json'), JSON.stringify({ ...reports.get('reference')!, schema_version: 1 }));
  // Every command line, in this process one after another (output captured).
  for (const name of Object.keys(COMMANDS) as (keyof typeof COMMANDS)[]) runs.set(name, await cliHere(COMMANDS[name]));
}, 180_000);

const COMMANDS = {
  compare: ['compare', at('reference'), at(MEMO), join(at(TOKEN), 'report.json'), '--report-dir', at('out')],
  hostile: ['compare', at('hostile'), at('hostile-again'), '--report-dir', at('out-hostile')],
  schema: ['compare', at('reference'), at('v1.json'), '--report-dir', at('out-schema')],
  broken: ['compare', '--diff', at('acme-main'), at('acme-pr'), '--report-dir', at('diff-broken')],
  fixed: ['compare', '--diff', at('acme-pr'), at('acme-main'), '--report-dir', at('diff-fixed')],
  lost: ['compare', '--diff', at('acme-main'), at('acme-lost'), '--report-dir', at('diff-lost')],
  forced: ['compare', '--diff', at('reference'), at(MEMO), '--force', '--report-dir', at('diff-forced')],
  // `help NAME` finds the command in the command table.
  help: ['help', 'compare'],
} as const satisfies Record<string, readonly string[]>;
const runs = new Map<keyof typeof COMMANDS, CliResult>();
const ran = (name: keyof typeof COMMANDS) => runs.get(name)!;

/** The rows of the Markdown tables under `heading` (up to the next heading), as cells; an escaped `\\|` stays in its cell. */
function tableRows(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) return [];
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(/\n#{2,4} /);
  return (end < 0 ? rest : rest.slice(0, end))
    .split('\n')
    .filter((line) => line.startsWith('| ') && !/^\|[-: |]+\|$/.test(line))
    .map((line) =>
      line
        .slice(2, -2)
        .split(' | ')
        .map((c) => c.trim()),
    );
}

describe('compare INPUT...', () => {
  const out = at('out');

  it('publishes no absolute local path: inputs given by theirs are named by their last parts', () => {
    for (const name of ['out', 'out-hostile', 'diff-broken', 'diff-fixed', 'diff-lost', 'diff-forced']) {
      for (const file of ['compare.md', 'compare.html', 'diff.md']) {
        const path = join(at(name), file);
        if (existsSync(path)) expect(readFileSync(path, 'utf8'), path).not.toContain(dir);
      }
    }
    expect(readFileSync(join(out, 'compare.md'), 'utf8')).toContain(`…/${dir.split('/').at(-1)}/reference`);
  });

  it('exits 0 with nothing on stderr', () => {
    expect(ran('compare').stderr).toBe('');
    expect(ran('compare').status).toBe(0);
  });

  it('shows each mutant\'s failing requirements as failed in its column, and passed for the reference, in compare.md', () => {
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    const rows = tableRows(md, '### Requirements by spec section');
    const header = rows[0]!;
    expect(header.slice(4)).toEqual([REFERENCE, MEMO, TOKEN]);
    const cells = new Map(rows.slice(1).map((row) => [row[1]!, row.slice(4)]));
    expect(cells.size).toBe(reports.get('reference')!.requirements.length);
    for (const [column, mutant] of [
      [1, MEMO],
      [2, TOKEN],
    ] as const) {
      const failed = failing(reports.get(mutant)!);
      // The faults the catalogue declares are among what the suite saw fail.
      expect(failed).toEqual(expect.arrayContaining([...MUTANTS.find((m) => m.name === mutant)!.catches]));
      for (const id of failed) {
        expect(cells.get(id)![column], `${id} for ${mutant}`).toBe('**failed**');
        expect(cells.get(id)![0], `${id} for the reference`).toBe('passed');
      }
    }
  });

  it('lists exactly the requirements one passed and another failed under "Where implementations disagree", first', () => {
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    const memoFailed = failing(reports.get(MEMO)!);
    const tokenFailed = failing(reports.get(TOKEN)!);
    // The two faults break different requirements.
    expect(memoFailed.filter((id) => tokenFailed.includes(id))).toEqual([]);
    expect(memoFailed).toContain('CPR-MEMO-1');
    expect(tokenFailed).toContain('TOK-ONCE-1');
    const listed = tableRows(md, '### Where implementations disagree').slice(1);
    expect(listed.map((row) => row[0]).sort()).toEqual([...memoFailed, ...tokenFailed].sort());
    const memoRow = listed.find((row) => row[0] === 'CPR-MEMO-1')!;
    expect(memoRow.slice(4, 5)).toEqual(['passed']);
    expect(memoRow[5]).toMatch(/^\*\*failed\*\*: failed in CPR-MEMO-/);
    expect(md.indexOf('### Where implementations disagree')).toBeLessThan(md.indexOf('### Requirements by spec section'));
    // Every requirement in the matrix row marks the same disagreement.
    const marked = tableRows(md, '### Requirements by spec section').slice(1).filter((row) => row[3] === 'yes').map((row) => row[1]);
    expect(marked.sort()).toEqual(listed.map((row) => row[0]).sort());
  });

  it('shows the same statuses in compare.html, disagreeing rows highlighted and listed first', () => {
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    const matrix = html.slice(html.indexOf('<table id="matrix">'));
    const rows = new Map([...matrix.matchAll(/<tr data-row([^>]*)><td class="id">([^<]+)<\/td>(.*?)<\/tr>/g)].map((m) => [m[2]!, { attrs: m[1]!, statuses: [...m[3]!.matchAll(/class="badge s-([a-z-]+)"/g)].map((b) => b[1]) }]));
    expect(rows.size).toBe(reports.get('reference')!.requirements.length);
    const memoFailed = failing(reports.get(MEMO)!);
    const tokenFailed = failing(reports.get(TOKEN)!);
    for (const id of memoFailed) expect(rows.get(id)).toEqual({ attrs: ' data-disagree class="disagree" data-differ', statuses: ['passed', 'failed', 'passed'] });
    for (const id of tokenFailed) expect(rows.get(id)).toEqual({ attrs: ' data-disagree class="disagree" data-differ', statuses: ['passed', 'passed', 'failed'] });
    expect([...rows].filter(([, row]) => row.attrs.includes('data-disagree')).length).toBe(memoFailed.length + tokenFailed.length);
    const section = html.slice(html.indexOf('<section id="disagree">'), html.indexOf('<section id="requirements">'));
    expect([...section.matchAll(/<td class="id">([^<]+)<\/td>/g)].map((m) => m[1]).sort()).toEqual([...memoFailed, ...tokenFailed].sort());
    expect(html.indexOf('<section id="disagree">')).toBeLessThan(html.indexOf('<section id="requirements">'));
    // Each implementation's header: verdict, coverage line, versions.
    expect(html).toContain(`<td>${REFERENCE}</td><td><span class="verdict v-conformant">CONFORMANT</span></td>`);
    expect(html).toContain(`<td>${MEMO}</td><td><span class="verdict v-non-conformant">NON-CONFORMANT</span></td>`);
    expect(html).toMatch(/exercised: \d+ passed, 0 failed, 0 not exercised<\/td><td>0\.1\.0<\/td><td>CPP-PROFILE-1\.0<\/td>/);
  });

  it('writes a shields.io badge per implementation: conformant for the reference, non-conformant for the mutants', () => {
    const badges = join(out, 'badges');
    expect(readdirSync(badges).sort()).toEqual([`${MEMO}.json`, 'embedded-reference.json', `${TOKEN}.json`].sort());
    const read = (name: string) => JSON.parse(readFileSync(join(badges, `${name}.json`), 'utf8')) as Record<string, unknown>;
    const c = reports.get('reference')!.coverage;
    expect(read('embedded-reference')).toEqual({ schemaVersion: 1, label: 'CPR conformance', message: `conformant ${c.passed}/${c.deciding}`, color: 'brightgreen' });
    for (const mutant of [MEMO, TOKEN]) {
      const m = reports.get(mutant)!.coverage;
      expect(m.failed).toBeGreaterThan(0);
      expect(read(mutant)).toEqual({ schemaVersion: 1, label: 'CPR conformance', message: `non-conformant ${m.failed} failed, ${m.passed}/${m.deciding}`, color: 'red' });
    }
  });

  it('sums up on the terminal: implementations, verdicts, disagreements and the files written', () => {
    const stdout = ran('compare').stdout;
    expect(stdout).toMatch(/^compared 3 implementation\(s\):\n/);
    expect(stdout).toMatch(new RegExp(`\\n${MEMO} +NON-CONFORMANT +\\d+ of \\d+ deciding requirements`));
    expect(stdout).toMatch(/\nembedded reference +CONFORMANT /);
    const count = failing(reports.get(MEMO)!).length + failing(reports.get(TOKEN)!).length;
    expect(stdout).toContain(`disagreements (passed by one, failed by another): ${count}: CPR-MEMO-1`);
    expect(stdout).toContain(`written: ${join(out, 'compare.html')}, ${join(out, 'compare.md')}, ${join(out, 'badges', 'embedded-reference.json')}`);
  });
});

describe('compare of hostile or mismatched reports', () => {
  it('escapes target names in HTML, Markdown and badge file names, tells duplicates apart, and warns of another suite version', () => {
    const out = at('out-hostile');
    const r = ran('hostile');
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^cpr-conformance: warning: the inputs ran different suite versions: 0\.1\.0 \(.*\); 0\.0\.9 \(.* \(2\)\); .*apples to oranges\n$/);
    expect(r.stderr + r.stdout).not.toContain('\u001b');
    const html = readFileSync(join(out, 'compare.html'), 'utf8');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('\\u001b[31mred (2)</th>');
    expect(html.match(/<script/g)).toHaveLength(1);
    const nonce = /script-src 'nonce-([^']+)'/.exec(html)![1];
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(html).not.toMatch(/\b(src|href)="(?!#)/);
    expect(html).toContain('<p class="warning">Warning: the inputs ran different suite versions');
    const md = readFileSync(join(out, 'compare.md'), 'utf8');
    expect(md).not.toContain('<script');
    expect(md).toContain('&lt;script&gt;alert(1)&lt;/script&gt; \\| \\*\\*bold\\*\\* \\[x\\](javascript:alert(1)) \\\\u001b\\[31mred (2) |');
    expect(md).toContain('**Warning**: the inputs ran different suite versions');
    // Badge files stay in badges/, named by letters, digits and dashes only.
    expect(readdirSync(join(out, 'badges')).sort()).toEqual(['script-alert-1-script-bold-x-javascript-alert-1-31mred-2.json', 'script-alert-1-script-bold-x-javascript-alert-1-31mred.json']);
    expect(readdirSync(out).sort()).toEqual(['badges', 'compare.html', 'compare.md']);
  });

  it('refuses a report of another schema version with exit 2, USAGE_ERROR and a hint, writing nothing', () => {
    const r = ran('schema');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^cpr-conformance: USAGE_ERROR: .*v1\\.json is a report of schema_version 1; this cpr-conformance reads schema_version ${REPORT_SCHEMA_VERSION}\\n {2}hint: \\S`));
    expect(() => readdirSync(at('out-schema'))).toThrow();
  });

  it.each([
    ['a missing file', () => at('no-such-report.json'), /^no such file or folder: .*no-such-report\.json$/],
    ['a folder without report.json', () => (mkdirSync(at('empty'), { recursive: true }), at('empty')), /^cannot read report .*empty\/report\.json: ENOENT/],
    ['a file that is not JSON', () => (writeFileSync(at('garbage.json'), 'not json {'), at('garbage.json')), /garbage\.json is not JSON: /],
    ['JSON that is not a report', () => (writeFileSync(at('other.json'), '{"hello": "world"}'), at('other.json')), /other\.json is not a valid report \(\d+ problems\):\n {2}- at \(top level\): lacks required member "schema_version"/],
  ])('refuses %s with USAGE_ERROR and a hint, writing nothing', async (what, input, message) => {
    const out = at(`out-bad-${what.replace(/\W+/g, '-')}`);
    const refused = compare([at('reference'), input(), '--report-dir', out]);
    await expect(refused).rejects.toMatchObject({ name: 'HarnessError', code: 'USAGE_ERROR', message: expect.stringMatching(message), hint: expect.stringMatching(/report(\.schema)?\.json/) });
    expect(() => readdirSync(out)).toThrow();
  });

  it('refuses an output folder that is a file with USAGE_ERROR and a hint', async () => {
    writeFileSync(at('a-file'), '');
    await expect(compare([at('reference'), '--report-dir', at('a-file')])).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringMatching(/^--report-dir \S+a-file cannot be written \(EEXIST\)$/), hint: expect.stringMatching(/give a folder you can write to/) });
  });

  it('refuses a call without inputs, --diff without two, and --force without --diff', async () => {
    await expect(compare([])).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringMatching(/^compare needs at least one INPUT/) });
    await expect(compare(['--diff', at('reference')])).rejects.toMatchObject({ code: 'USAGE_ERROR', message: 'compare --diff takes two inputs, BEFORE and AFTER; got 1' });
    await expect(compare(['--force', at('reference')])).rejects.toMatchObject({ code: 'USAGE_ERROR', message: '--force applies to --diff only' });
    await expect(compare(['--bogus'])).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringMatching(/Unknown option '--bogus'/) });
  });

  it('is in the command table, with help', () => {
    const help = ran('help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: cpr-conformance compare INPUT\.\.\./);
    expect(help.stdout).toContain('--diff');
    expect(help.stdout).toMatch(/\nExit codes: 0 written/);
  });
});

describe('compare --diff BEFORE AFTER', () => {
  /** Requirement and test IDs of a diff.md section. */
  const idsUnder = (md: string, heading: string) => {
    const ids = { requirements: [] as string[], tests: [] as string[] };
    let table: keyof typeof ids | undefined;
    for (const row of tableRows(md, heading)) {
      if (row[0] === 'Requirement') table = 'requirements';
      else if (row[0] === 'Test') table = 'tests';
      else if (table !== undefined) ids[table].push(row[0]!);
    }
    return ids;
  };
  const newlyFailing = (report: Report) => report.tests.filter(observedFailure).map((t) => t.id);

  it('lists exactly the mutant\'s new failures, requirement by requirement and test by test, and exits 1', () => {
    const out = at('diff-broken');
    const r = ran('broken');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const md = readFileSync(join(out, 'diff.md'), 'utf8');
    const pr = reports.get('acme-pr')!;
    expect(reports.get('acme-main')!.verdict).toBe('conformant');
    const listed = idsUnder(md, '### New failures');
    expect(listed.requirements.sort()).toEqual(failing(pr).sort());
    expect(listed.tests.sort()).toEqual(newlyFailing(pr).sort());
    expect(listed.requirements).toContain('CPR-MEMO-1');
    expect(md).toMatch(/^## cpr-conformance diff: new failures \d+ requirement\(s\), \d+ test\(s\); coverage lost 1 requirement\(s\), 0 test\(s\)\n\n\*\*Fails\*\*: new failures and 1 deciding requirement\(s\) no longer exercised\./);
    expect(md).not.toContain('### Fixes');
    // The inline scenario first has the application refuse the long memo read directly: with the fault, that setup fails and the channel goes unexercised.
    expect(idsUnder(md, '### Coverage lost (observed before, not exercised now)')).toEqual({ requirements: ['DLV-INLINE-1'], tests: [] });
    expect(md).not.toContain('### Other changes');
    expect(r.stdout).toContain(`new failures: ${listed.requirements.length + listed.tests.length}\n  requirement CPR-MEMO-1: passed -> failed — failed in CPR-MEMO-`);
    expect(r.stdout).toContain(`written: ${join(out, 'diff.md')}`);
  });

  it('lists the same as fixes the other way round, and exits 0', () => {
    const out = at('diff-fixed');
    const r = ran('fixed');
    expect(r.status).toBe(0);
    const md = readFileSync(join(out, 'diff.md'), 'utf8');
    const pr = reports.get('acme-pr')!;
    const listed = idsUnder(md, '### Fixes');
    expect(listed.requirements.sort()).toEqual(failing(pr).sort());
    expect(listed.tests.sort()).toEqual(newlyFailing(pr).sort());
    expect(md).not.toContain('### New failures');
    expect(md).toContain('**Passes**: no new failure');
    expect(r.stdout).toMatch(/\nfixes: \d+\n {2}requirement CPR-MEMO-1: failed -> passed — before: failed in CPR-MEMO-/);
  });

  it('exits 1 when a deciding requirement observed before is no longer exercised', () => {
    const out = at('diff-lost');
    const r = ran('lost');
    expect(r.status).toBe(1);
    const md = readFileSync(join(out, 'diff.md'), 'utf8');
    const lost = idsUnder(md, '### Coverage lost (observed before, not exercised now)');
    expect(lost.requirements).toContain('TOK-ONCE-1');
    expect(lost.tests.sort()).toEqual(reports.get('reference')!.requirements.find((q) => q.id === 'TOK-ONCE-1')!.tests.slice().sort());
    expect(md).not.toContain('### New failures');
    expect(md).toMatch(/\| TOK-ONCE-1 \| MUST \| passed \| skipped \|/);
    expect(md).toContain('deciding requirement(s) no longer exercised');
  });

  it('refuses two different targets without --force, and warns with it', async () => {
    await expect(compare(['--diff', at('reference'), at(MEMO), '--report-dir', at('diff-refused')])).rejects.toMatchObject({
      code: 'USAGE_ERROR',
      message: expect.stringMatching(/^compare --diff compares two runs of one implementation, but these are of different targets: "embedded reference" .* and "app-memo-141-accepted"/),
      hint: expect.stringContaining('--force'),
    });
    expect(() => readdirSync(at('diff-refused'))).toThrow();
    const forced = ran('forced');
    expect(forced.status).toBe(1);
    expect(forced.stderr).toBe('cpr-conformance: warning: the two reports are of different targets: embedded reference before, app-memo-141-accepted after\n');
    expect(readFileSync(join(at('diff-forced'), 'diff.md'), 'utf8')).toContain('**Warning**: the two reports are of different targets');
  });
});
