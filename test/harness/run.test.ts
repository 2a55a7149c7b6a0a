import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readReport } from '../../harness/report/index.ts';
import { EMBEDDED_REFERENCE_OPTIONS } from '../../harness/target/reference-thread.ts';
import { cliHere, served } from './hostile/support.ts';

// Each test spawns whole conformance runs: their duration follows the machine's load.
vi.setConfig({ testTimeout: 180_000 });

const BIN = fileURLToPath(new URL('../../bin/cpr-conformance.js', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/scenarios/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'cpr-run-test-'));
let n = 0;
const dir = () => join(work, `r${n++}`);
const fileWith = (name: string, text: string) => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};

/** The real command, as a user runs it: the launcher, its own Node, its exit code. */
function spawned(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 150_000, env: { ...process.env, CI: 'true' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same command line in this process (main(), output captured): no Node start per call. */
const cli = (...args: string[]) => cliHere(args);

describe('cpr-conformance run', () => {
  it('runs a selection against the embedded reference, writing all five report forms, and calls it incomplete', async () => {
    const out = dir();
    const r = spawned('run', '--only', 'TOK-', '--report-dir', out);
    expect(r.stderr).toBe('');
    // Nothing failed, but a selection exercises only part of what decides: exit 3.
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/verdict: incomplete/);
    expect(r.stdout).toMatch(/coverage: \d+ of \d+ deciding requirements \(payee, paying-app, operator\) exercised/);
    for (const file of ['report.json', 'junit.xml', 'summary.md', 'report.html']) expect(existsSync(join(out, file))).toBe(true);
    expect(readdirSync(join(out, 'allure-results')).some((f) => f.endsWith('-result.json'))).toBe(true);
    const report = readReport(join(out, 'report.json'));
    expect(report.verdict).toBe('incomplete');
    expect(report.coverage.untested).toBeGreaterThan(0);
    expect(report.requirements.find((q) => q.id === 'CPP-ISS-1')!.status).toBe('not-run');
    expect(report.tests.length).toBeGreaterThan(0);
    expect(report.tests.every((t) => t.status === 'passed')).toBe(true);
    expect(report.run.target.embedded).toBe(true);
  });

  it('exits 1 on a deliberately wrong expectation and reports expected vs. actual', async () => {
    const out = dir();
    const r = await cli('run', '--scenario', join(FIXTURES, 'wrong-expectation.yaml'), '--only', 'TOK-ONCE-990', '--report-dir', out);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAIL TOK-ONCE-990/);
    expect(r.stdout).toMatch(/rerun: npx cpr-conformance run --scenario \S*wrong-expectation\.yaml --only TOK-ONCE-990/);
    const report = readReport(join(out, 'report.json'));
    expect(report.verdict).toBe('non-conformant');
    const failed = report.tests[0]!.checks.find((c) => !c.passed)!;
    expect(failed).toMatchObject({ expected: 200, actual: 410, requirement: 'TOK-ONCE-1' });
    expect(report.requirements.find((q) => q.id === 'TOK-ONCE-1')!.status).toBe('failed');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('TOK-ONCE-990');
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<failure /);
  });

  it('gives each test a rerun command with the run\'s seed once for a property, and none for a scenario', async () => {
    const out = dir();
    const r = await cli('run', '--only', 'PROP-OP-016', '--only', 'CPP-WK-001', '--seed', '7', '--report-dir', out);
    expect(r.status, r.stderr).toBe(3);
    const reruns = Object.fromEntries(readReport(join(out, 'report.json')).tests.map((t) => [t.id, t.rerun]));
    expect(reruns).toEqual({ 'PROP-OP-016': 'npx cpr-conformance run --only PROP-OP-016 --seed 7', 'CPP-WK-001': 'npx cpr-conformance run --only CPP-WK-001' });
  });

  it('exits 2 on the refused connection when nothing listens at the target, running no test', async () => {
    const out = dir();
    const r = await cli('run', '--target', 'https://127.0.0.1:9', '--report-dir', out);
    expect(r.status).toBe(2);
    // Refused at the preflight, not waited out: the error names the refusal.
    expect(r.stderr).toMatch(/HARNESS_TARGET_UNREACHABLE: .*ECONNREFUSED/);
    const report = readReport(join(out, 'report.json'));
    expect(report.verdict).toBe('error');
    expect(report.tests.filter((t) => t.status === 'passed' || t.status === 'failed')).toEqual([]);
    expect(report.tests.filter((t) => t.status === 'error').every((t) => t.error_code === 'HARNESS_TARGET_UNREACHABLE')).toBe(true);
  });

  it('exits 2 when nothing is selected, or a scenario file is broken', async () => {
    const none = await cli('run', '--only', 'NOPE-', '--report-dir', dir());
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/NOTHING_SELECTED/);
    const broken = await cli('run', '--scenario', join(FIXTURES, 'broken.yaml'), '--report-dir', dir());
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/SCENARIO_INVALID: .*broken\.yaml:12:\d+: .*(unknown key "metod"|missing "method")/);
  });

  // A run that can judge nothing is a configuration mistake, never a verdict (and never conformant, exit 0).
  it.each<[string, () => string[], RegExp]>([
    ['an empty target file', () => ['--target', fileWith('empty.yaml', '')], /CONFIG_INVALID: .*empty\.yaml is invalid .*at least one role to test: payee, operator or paying_app, got no role at all/s],
    ['a target file with only a name', () => ['--target', fileWith('named.yaml', 'name: x\n')], /CONFIG_INVALID: .*at least one role to test/s],
    ['--role naming a role the target lacks', () => ['--target', 'https://127.0.0.1:9', '--role', 'paying-app'], /NOTHING_TO_DECIDE: the run has no role to test: --role paying-app names none of the target's roles \(payee, operator\)/],
    ['a selection of SHOULD tests only', () => ['--only', 'TOK-EXP-004'], /NOTHING_TO_DECIDE: the selection covers no requirement that decides a verdict .*SHOULD decides only with --strict/],
  ])('exits 2 with nothing to decide: %s, sending nothing and writing no verdict', async (_name, args, message) => {
    const out = dir();
    const r = await cli('run', ...args(), '--report-dir', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toMatch(/verdict:/);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
  });

  it('compares with a baseline: a known failure passes the run, an unexpected pass fails it', async () => {
    const known = join(work, 'known.yaml');
    writeFileSync(known, 'known_failures: [TOK-ONCE-990]\n');
    const args = ['run', '--scenario', join(FIXTURES, 'wrong-expectation.yaml'), '--only', 'TOK-ONCE-990', '--only', 'TOK-GET-001', '--allow-partial', '--baseline', known];
    const first = dir();
    expect((await cli(...args, '--report-dir', first)).status).toBe(0);
    // The baseline changes the exit code only: the report still says what was observed.
    const seen = readReport(join(first, 'report.json'));
    expect(seen.verdict).toBe('non-conformant');
    expect(seen.tests.find((t) => t.id === 'TOK-ONCE-990')!.known_failure).toBe(true);
    writeFileSync(known, 'known_failures: [TOK-ONCE-990, TOK-GET-001]\n');
    const r = await cli(...args, '--report-dir', dir());
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/baseline: 1 known failure\(s\) still observed, 0 new failure\(s\), 1 unexpected pass\(es\)/);
    expect(r.stdout).toMatch(/passed unexpectedly \(listed as a known failure\): TOK-GET-001/);
  });

  it('splits a run into shards that merge into one report', async () => {
    const a = dir();
    const b = dir();
    const merged = dir();
    expect((await cli('run', '--only', 'TOK-', '--only', 'CPP-ISS-', '--no-properties', '--shard', '1/2', '--seed', '7', '--allow-partial', '--report-dir', a)).status).toBe(0);
    expect((await cli('run', '--only', 'TOK-', '--only', 'CPP-ISS-', '--no-properties', '--shard', '2/2', '--seed', '7', '--allow-partial', '--report-dir', b)).status).toBe(0);
    const r = await cli('report', 'merge', a, b, '--report-dir', merged);
    expect(r.status).toBe(0);
    expect(readReport(join(merged, 'report.json')).verdict).toBe('incomplete');
    expect(readdirSync(join(merged, 'allure-results')).filter((f) => f.endsWith('-result.json')).length).toBe(readReport(join(merged, 'report.json')).tests.length);
    const total = readReport(join(a, 'report.json')).tests.length + readReport(join(b, 'report.json')).tests.length;
    expect(readReport(join(merged, 'report.json')).tests).toHaveLength(total);
    expect(readReport(join(a, 'report.json')).tests.length).toBeGreaterThan(0);
    expect(readReport(join(b, 'report.json')).tests.length).toBeGreaterThan(0);
  });
});

describe('--reporter', () => {
  it('writes report.json and only the reports named, in run and in report merge; the terminal\'s closing lines only when named', async () => {
    const out = dir();
    const r = await cli('run', '--only', 'TOK-GET-', '--no-properties', '--allow-partial', '--reporter', 'junit', '--report-dir', out);
    expect(r.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['junit.xml', 'report.json']);
    expect(r.stdout).not.toMatch(/^verdict: /m);
    const merged = dir();
    const m = await cli('report', 'merge', out, '--reporter', 'markdown,terminal', '--report-dir', merged);
    expect(m.status).toBe(0);
    expect(readdirSync(merged).sort()).toEqual(['report.json', 'summary.md']);
    expect(m.stdout).toMatch(/^verdict: incomplete/m);
    expect(m.stdout).toContain(`reports: ${merged}/ (report.json, summary.md)`);
  });

  it.each([
    [['--reporter', 'htlm'], /^cpr-conformance: USAGE_ERROR: --reporter: no reporter is called "htlm" \(did you mean "html"\?\)\n {2}hint: the reporters are terminal, json, junit, markdown, html, allure; see: cpr-conformance run --help\n$/],
    [['--reporter', ','], /^cpr-conformance: USAGE_ERROR: --reporter takes one name or more, comma-separated\n/],
  ])('refuses %j before anything runs', async (args, message) => {
    const out = dir();
    const r = await cli('run', '--only', 'TOK-GET-', ...args, '--report-dir', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
    expect(existsSync(out)).toBe(false);
  });
});

/** Starts `serve` with these options and resolves its start-up facts; stopped after the file's tests. */
describe('run --target against a server without the test-control interface', () => {
  const facts = served('--no-control');

  it('is incomplete, never conformant: it exits 3 and every report says how little was exercised', async () => {
    const { url, ca_file } = await facts;
    const out = dir();
    const r = await cli('run', '--target', url, '--ca', ca_file, '--property-runs', '2', '--report-dir', out);
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/verdict: incomplete/);
    const report = readReport(join(out, 'report.json'));
    expect(report.verdict).toBe('incomplete');
    expect(report.summary.failed).toBe(0);
    expect(report.summary.skipped).toBeGreaterThan(50);
    // Payee and operator only: the paying application's requirements do not decide.
    expect(report.coverage.roles).toEqual(['payee', 'operator']);
    expect(report.coverage.untested).toBeGreaterThan(report.coverage.passed);
    const skipped = report.requirements.find((q) => q.id === 'CPP-BAL-1')!;
    expect(skipped.status).toBe('skipped');
    expect(skipped.reason).toMatch(/missing test-control capability/);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/^## cpr-conformance: INCOMPLETE/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<h1>INCOMPLETE</h1>');
    expect((await cli('run', '--target', url, '--ca', ca_file, '--no-properties', '--allow-partial', '--report-dir', dir())).status).toBe(0);
  });
});

describe('run --target against a separately started serve', () => {
  // The embedded reference's policy (two assets), so that the two runs meet the same Operator.
  const policy = join(mkdtempSync(join(tmpdir(), 'cpr-serve-policy-')), 'policy.json');
  writeFileSync(policy, JSON.stringify(EMBEDDED_REFERENCE_OPTIONS.policy));
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--plaintext-port', '0', '--policy', policy, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  afterAll(() => {
    child.kill('SIGTERM');
  });

  const started = new Promise<{ url: string; ca_file: string }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as { url: string; ca_file: string });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });

  it('gives the same verdict and results as the embedded run', async () => {
    const facts = await started;
    const viaUrl = dir();
    const embedded = dir();
    const selection = ['--only', 'TOK-', '--only', 'CPP-ISS-', '--only', 'CPP-BAL-', '--only', 'CPP-STS-', '--no-properties'];
    const r = await cli('run', '--target', facts.url, '--ca', facts.ca_file, ...selection, '--allow-partial', '--report-dir', viaUrl);
    expect(r.status).toBe(0);
    expect((await cli('run', ...selection, '--allow-partial', '--report-dir', embedded)).status).toBe(0);
    // --target URL covers the payee and operator roles; the embedded target adds the paying app,
    // so what needs a paying app is not applicable over the URL and nothing else may differ.
    const needsApp = (reason: string | undefined) => /no paying-app role/.test(reason ?? '');
    const url = readReport(join(viaUrl, 'report.json'));
    const local = readReport(join(embedded, 'report.json'));
    const skippedForApp = new Set(url.tests.filter((t) => t.status === 'not-applicable' && needsApp(t.reason)).map((t) => t.id));
    const outcome = (tests: typeof url.tests) => tests.filter((t) => !skippedForApp.has(t.id)).map((t) => [t.id, t.status]).sort();
    expect(outcome(url.tests)).toEqual(outcome(local.tests));
    expect(outcome(url.tests).length).toBeGreaterThan(20);
    expect(local.tests.filter((t) => skippedForApp.has(t.id)).every((t) => t.status === 'passed')).toBe(true);
    expect(url.verdict).toBe(local.verdict);
    expect(readReport(join(viaUrl, 'report.json')).run.target.roles.operator?.tls).toBe('verified');
  });

  it('certifies a payee and operator without a paying application: conformant, every deciding requirement exercised', async () => {
    // Requirements shared with the paying application (DLV-INLINE-1, PRF-RAIL-1) have payee-side
    // scenarios that need no paying application; otherwise such a target could never be conformant.
    const facts = await started;
    const out = dir();
    const r = await cli('run', '--target', facts.url, '--ca', facts.ca_file, '--property-runs', '2', '--report-dir', out);
    const report = readReport(join(out, 'report.json'));
    expect(report.coverage.roles).toEqual(['payee', 'operator']);
    expect(report.coverage.untested_ids).toEqual([]);
    expect(report.verdict).toBe('conformant');
    expect(r.status).toBe(0);
  });
});
