// `run --repeat N` against a deliberately flaky target (a module payee that
// answers right and wrong by turns): every report form says which test is
// stable-pass, stable-fail or flaky, and a flaky test never counts as a pass.
// Also the timings a run writes (--write-timings) and reads (--shard-timings).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { list } from '../../harness/cli/list.ts';
import { run } from '../../harness/cli/run.ts';
import { readReport, type Report } from '../../harness/report/index.ts';
import { captured } from '../support/captured.ts';

const FLAKY_PAYEE = fileURLToPath(new URL('../fixtures/flaky-payee.mjs', import.meta.url));
const SCENARIOS = fileURLToPath(new URL('../fixtures/scenarios/flaky.yaml', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'cpr-repeat-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs a command in this process and returns its exit code and what it printed. */
const cli = (command: (argv: string[]) => Promise<number>, argv: string[]) => captured(() => command(argv));

const targetFile = join(work, 'flaky-target.yaml');
writeFileSync(targetFile, `name: flaky payee\npayee:\n  adapter: module\n  module: ${FLAKY_PAYEE}\n  capabilities: []\n`);
const selection = ['--target', targetFile, '--scenario', SCENARIOS, '--only', 'TOK-GET-99', '--no-properties'];

describe('run --repeat 4 against a flaky target', () => {
  const dir = join(work, 'repeat');
  const timings = join(work, 'timings.json');
  let result: { code: number; stdout: string; stderr: string };
  let report: Report;
  beforeAll(async () => {
    result = await cli(run, [...selection, '--repeat', '4', '--write-timings', timings, '--report-dir', dir]);
    report = readReport(join(dir, 'report.json'));
  });
  const test = (id: string) => report.tests.find((t) => t.id === id)!;

  it('labels each test in report.json, a flaky one failed with the first failing run as evidence', () => {
    expect(result.stderr).toBe('');
    expect(report.run.repeat).toBe(4);
    expect(test('TOK-GET-991')).toMatchObject({ status: 'passed', repeat: { runs: 4, passed: 4, failed: 0, errors: 0, stability: 'stable-pass' } });
    expect(test('TOK-GET-993')).toMatchObject({ status: 'failed', repeat: { runs: 4, passed: 0, failed: 4, stability: 'stable-fail' } });
    const flaky = test('TOK-GET-992');
    expect(flaky).toMatchObject({ status: 'failed', repeat: { runs: 4, passed: 2, failed: 2, errors: 0, stability: 'flaky' } });
    expect(flaky.reason).toMatch(/^flaky: passed 2 of 4; run 2 failed: /);
    expect(flaky.checks.filter((c) => !c.passed)).toMatchObject([{ check: 'status', expected: 200, actual: 503 }]);
    expect(flaky.transcript.map((e) => e.response?.status)).toEqual([503]);
    expect(flaky.rerun).toMatch(/--only TOK-GET-992 --repeat 4$/);
  });

  it('never counts a flaky test as a pass: the requirement fails and the run is non-conformant (exit 1)', () => {
    expect(result.code).toBe(1);
    expect(report.verdict).toBe('non-conformant');
    expect(report.summary).toMatchObject({ total: 3, passed: 1, failed: 2 });
    expect(report.requirements.find((r) => r.id === 'TOK-GET-1')).toMatchObject({ status: 'failed', reason: expect.stringContaining('TOK-GET-992') });
  });

  it('says so on the terminal', () => {
    expect(result.stdout).toMatch(/against flaky payee, each 4 times/);
    expect(result.stdout).toMatch(/^FAIL \(flaky\) TOK-GET-992 /m);
    expect(result.stdout).toMatch(/^ {5}flaky: passed 2 of 4; run 2 failed: /m);
    expect(result.stdout).toMatch(/^ {5}stable-fail: passed 0 of 4 \(4 failed, 0 errors\)$/m);
    expect(result.stdout).toMatch(/^repeat: each test 4 times: 1 stable-pass, 1 stable-fail, 1 flaky \(TOK-GET-992\)/m);
  });

  it('says so in junit.xml, summary.md, report.html and allure-results/', () => {
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<system-out>requirements [^<\n]*\nstability flaky: passed 2 of 4 /);
    expect(junit).toMatch(/<system-out>requirements [^<\n]*\nstability stable-pass: passed 4 of 4 /);
    expect(junit).toMatch(/<failure message="flaky: passed 2 of 4 \(2 failed, 0 errors\): TOK-GET-1 status: /);
    const markdown = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(markdown).toContain('**Repeat**: each test 4 times: 1 stable-pass, 1 stable-fail, 1 flaky (TOK-GET-992)');
    expect(markdown).toMatch(/### Flaky tests[\s\S]*\| TOK-GET-992 \| failed \| 2 of 4 \| 2 \| 0 \|/);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<span class="badge s-flaky" title="flaky: passed 2 of 4 (2 failed, 0 errors)">flaky 2/4</span>');
    expect(html).toContain('Repeat: each test 4 times');
    const allure = readdirSync(join(dir, 'allure-results'))
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(join(dir, 'allure-results', f), 'utf8')) as { name: string; status: string; statusDetails: { flaky?: boolean }; labels: { name: string; value: string }[] });
    const flaky = allure.find((r) => r.name.startsWith('TOK-GET-992 '))!;
    expect(flaky).toMatchObject({ status: 'failed', statusDetails: { flaky: true } });
    expect(flaky.labels).toContainEqual({ name: 'tag', value: 'flaky' });
    expect(allure.find((r) => r.name.startsWith('TOK-GET-991 '))!.statusDetails.flaky).toBeUndefined();
  });

  it('writes the median time of one run of each test as a timings table, which --shard-timings reads', async () => {
    const table = JSON.parse(readFileSync(timings, 'utf8')) as { format: string; runs_per_test: number; tests: Record<string, number> };
    expect(table).toMatchObject({ format: 'cpr-conformance-timings/1', runs_per_test: 4 });
    expect(Object.keys(table.tests)).toEqual(['TOK-GET-991', 'TOK-GET-992', 'TOK-GET-993']);
    expect(table.tests['TOK-GET-992']).toBe(test('TOK-GET-992').repeat!.median_ms);
    for (const source of [timings, join(dir, 'report.json')]) {
      const listed = await cli(list, ['--scenario', SCENARIOS, '--only', 'TOK-GET-99', '--no-properties', '--shard', '1/2', '--shard-timings', source]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`^shard 1/2: [12] of 3 test\\(s\\), about \\d+ ms \\(shards \\d+ ms, \\d+ ms by ${source.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)$`, 'm'));
    }
  });
});

describe('the new run options refuse what they cannot use', () => {
  it.each([
    [['--repeat', '0'], /--repeat takes a whole number from 1 to 100, not "0"/, /--repeat 5 runs each test five times/],
    [['--repeat', '101'], /--repeat takes a whole number from 1 to 100/, /flaky/],
    [['--repeat', '2.5'], /--repeat takes a whole number from 1 to 100/, /flaky/],
    [['--shard', '3/2'], /--shard takes i\/n with 1 <= i <= n <= 1000, not "3\/2"/, /--shard 2\/4/],
    [['--shard', '1/1001'], /--shard takes i\/n/, /--shard 2\/4/],
    [['--shard-timings', 'report.json'], /--shard-timings goes with --shard i\/n/, /--shard 1\/3 --shard-timings/],
    [['--write-timings', '/no/such/folder/timings.json'], /--write-timings \/no\/such\/folder\/timings\.json: the folder \/no\/such\/folder does not exist/, /--write-timings suites\/timings\.json/],
  ])('%j', async (argv, message, hint) => {
    await expect(run([...selection, ...argv])).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringMatching(message), hint: expect.stringMatching(hint) });
  });

  it('a --shard-timings file that is neither a timings table nor a report.json', async () => {
    const bad = join(work, 'bad-timings.json');
    writeFileSync(bad, '{"tests": {"TOK-GET-991": "fast"}}');
    await expect(run([...selection, '--shard', '1/2', '--shard-timings', bad])).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('neither a timings table') });
    await expect(run([...selection, '--shard', '1/2', '--shard-timings', join(work, 'nowhere.json')])).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringContaining('cannot read the timings') });
  });

  it('lists each new flag in --help', async () => {
    const help = await cli(run, ['--help']);
    for (const flag of ['--repeat N', '--shard-timings FILE', '--write-timings FILE', '--shard i/n']) expect(help.stdout).toContain(flag);
    const listHelp = await cli(list, ['--help']);
    for (const flag of ['--shard i/n', '--shard-timings FILE', '--no-properties']) expect(listHelp.stdout).toContain(flag);
  });
});
