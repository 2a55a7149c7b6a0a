// A target whose only faults the verdict does not decide on, run for real: the
// reference served with a mutant, judged by the command line. A SHOULD that is
// not met is a warning in every view and the run stays conformant (exit 0);
// under --strict the same is a failure. A PROFILE departure is a warning under
// --profile-advisory and a failure without it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cliHere, report, served, workDir } from '../hostile/support.ts';

// Whole conformance runs against a served target: their duration follows the machine's load.
vi.setConfig({ testTimeout: 180_000 });

const work = workDir('warnings');
let n = 0;
const dir = () => join(work, `r${n++}`);

/** The tests the closing lines name with `label` (FAIL, WARN, ...), each once. */
const named = (stdout: string, label: string) => [...new Set([...stdout.matchAll(new RegExp(`^${label} (\\S+) `, 'gm'))].map((m) => m[1]))].sort();

describe('a target whose only fault is a SHOULD: a token lifetime of 20 minutes (mutant payee-token-lifetime-20-minutes)', () => {
  const target = served('--mutant', 'payee-token-lifetime-20-minutes');

  it('is conformant with warnings (exit 0), and every view shows them as warnings, none as failures', async () => {
    const { url, ca_file } = await target;
    const out = dir();
    const r = await cliHere(['run', '--target', url, '--ca', ca_file, '--report-dir', out]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^verdict: conformant: /m);
    expect(named(r.stdout, 'FAIL')).toEqual([]);
    expect(named(r.stdout, 'WARN')).toEqual(['TOK-EXP-003', 'TOK-EXP-004']);
    expect(r.stdout).toMatch(/^tests: \d+ — \d+ passed, 0 failed, 2 warnings, /m);

    const json = report(out);
    expect(json.verdict).toBe('conformant');
    expect(json.summary).toMatchObject({ failed: 0, warned: 2, warnings: 1 });
    expect(json.requirements.find((q) => q.id === 'TOK-EXP-2')).toMatchObject({ status: 'warning', deciding: false });
    const warned = json.tests.filter((t) => t.warning);
    expect(warned.map((t) => [t.id, t.status])).toEqual([['TOK-EXP-003', 'failed'], ['TOK-EXP-004', 'failed']]);
    expect(warned.flatMap((t) => t.checks.filter((c) => !c.passed)).map((c) => [c.requirement, c.expected, c.actual])).toEqual([['TOK-EXP-2', 'at most 900', 1200], ['TOK-EXP-2', 'at most 900', 1200]]);

    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).not.toContain('<failure');
    expect(junit).toMatch(/^<testsuites name="cpr-conformance" tests="\d+" failures="0" /m);
    expect(junit.match(/warning, not a failure: [^<]*TOK-EXP-2 \(SHOULD\) at_most, step \d+: /g)).toHaveLength(2);

    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).not.toContain('### Failed tests');
    expect(md.slice(md.indexOf('### Tests with warnings'))).toContain('#### Test TOK-EXP-004:');

    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).not.toContain('<section id="failures">');
    expect(html.slice(html.indexOf('<section id="warnings">'))).toContain('<article class="failure warning" id="f-TOK-EXP-004">');

    const allure = readdirSync(join(out, 'allure-results'))
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(join(out, 'allure-results', f), 'utf8')) as { name: string; status: string; labels: { name: string; value: string }[] });
    expect(allure.filter((a) => a.status === 'failed')).toEqual([]);
    const lifetime = allure.find((a) => a.name.startsWith('TOK-EXP-004 '))!;
    expect(lifetime.status).toBe('passed');
    expect(lifetime.labels).toContainEqual({ name: 'tag', value: 'warning' });

    const explained = await cliHere(['explain', 'TOK-EXP-004', '--report', join(out, 'report.json')]);
    expect(explained.status).toBe(0);
    expect(explained.stdout).toContain('  TOK-EXP-004: warning\n  a warning, not a failure: ');
  });

  it('is non-conformant under --strict (exit 1): the same checks are failures', async () => {
    const { url, ca_file } = await target;
    const out = dir();
    const r = await cliHere(['run', '--target', url, '--ca', ca_file, '--only', 'TOK-EXP-', '--strict', '--report-dir', out]);
    expect(r.status).toBe(1);
    expect(named(r.stdout, 'FAIL')).toEqual(['TOK-EXP-003', 'TOK-EXP-004']);
    expect(named(r.stdout, 'WARN')).toEqual([]);
    const json = report(out);
    expect(json.verdict).toBe('non-conformant');
    expect(json.summary).toMatchObject({ failed: 2, warned: 0 });
    expect(json.requirements.find((q) => q.id === 'TOK-EXP-2')?.status).toBe('failed');
    expect(readFileSync(join(out, 'junit.xml'), 'utf8').match(/<failure /g)).toHaveLength(2);
  });

  it('is no new failure against a baseline that does not list it, unless --strict makes it one', async () => {
    const { url, ca_file } = await target;
    const baseline = join(work, 'known.yaml');
    writeFileSync(baseline, 'known_failures: []\n');
    // The token-expiry family: its MUSTs decide (a selection of SHOULDs alone has nothing to decide), TOK-EXP-003 and -004 warn.
    const args = ['run', '--target', url, '--ca', ca_file, '--only', 'TOK-EXP-', '--baseline', baseline, '--allow-partial'];
    const warned = await cliHere([...args, '--report-dir', dir()]);
    expect(warned.status).toBe(0);
    expect(warned.stdout).toContain('0 new failure(s)');
    const strict = await cliHere([...args, '--strict', '--report-dir', dir()]);
    expect(strict.status).toBe(1);
    expect(strict.stdout).toContain('  new failure (not in the baseline): TOK-EXP-004');
  });
});

describe('a target that departs from the wire profile where a SHOULD is also not met (mutant payee-fulfil-repeatable)', () => {
  const target = served('--mutant', 'payee-fulfil-repeatable');

  it.each<[string, string[], string, number]>([
    ['is a failure without --profile-advisory (exit 1)', [], 'FAIL', 1],
    ['is a warning under --profile-advisory (exit 3: a selection is incomplete, nothing failed)', ['--profile-advisory'], 'WARN', 3],
  ])('%s', async (_name, flags, label, status) => {
    const { url, ca_file } = await target;
    const out = dir();
    // With a MUST scenario beside it: under --profile-advisory a SHOULD scenario alone would have nothing to decide.
    const r = await cliHere(['run', '--target', url, '--ca', ca_file, '--only', 'DRV-SINGLE-001', '--only', 'TOK-GET-001', ...flags, '--report-dir', out]);
    expect(r.status).toBe(status);
    expect(named(r.stdout, label)).toEqual(['DRV-SINGLE-001']);
    const json = report(out);
    const test = json.tests.find((t) => t.id === 'DRV-SINGLE-001')!;
    expect([...new Set(test.checks.filter((c) => !c.passed).map((c) => c.level))].sort()).toEqual(['PROFILE', 'SHOULD']);
    expect(test.warning).toBe(label === 'WARN' ? true : undefined);
    expect(json.verdict).toBe(label === 'WARN' ? 'incomplete' : 'non-conformant');
  });
});
