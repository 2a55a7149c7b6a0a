// The payee's base URL is its own (PROFILE.md §8.1): the whole suite against the
// reference served on the IPv6 loopback, and under base paths with a
// percent-encoded space and with parentheses, must be conformant: no scenario may
// judge a delivery URI by a pattern written for one shape of base URL. And a
// target file that names the payee by another name than the one it advertises
// (localhost for 127.0.0.1) is a configuration mismatch the harness reports as
// its own error, never as the payee's failure; --allow-host settles it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPERTIES } from '../../harness/properties/catalogue.ts';
import { readReport } from '../../harness/report/index.ts';
import { assess } from '../../harness/report/aggregate.ts';
import { suiteCatalogue } from '../../harness/runner/catalogue.ts';
import { planOf, runPlan } from '../../harness/runner/plan.ts';
import { scenarioTarget } from '../../harness/runner/scenario-target.ts';
import { loadSuites } from '../../harness/scenarios/load.ts';
import { embeddedTarget } from '../../harness/target/target.ts';
import { EMBEDDED_REFERENCE_OPTIONS } from '../../harness/target/reference-thread.ts';
import { loadRegistry } from '../../profile/registry.ts';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/start.ts';
import { cliHere, REFERENCE_ADAPTER, workDir } from '../harness/hostile/support.ts';
import { ipv6Loopback } from '../support/ipv6.ts';

const scenarios = loadSuites().flatMap((s) => s.scenarios);
const catalogue = suiteCatalogue(scenarios);
const hasIpv6 = await ipv6Loopback();

async function certify(reference: ReferenceOptions) {
  const target = await embeddedTarget({ reference });
  try {
    const { results: tests } = await runPlan(planOf(scenarios, PROPERTIES), scenarioTarget(target), { seed: 11, propertyRuns: 5, rerunBase: 'run' });
    return { url: target.config.payee?.adapter === 'http' ? target.config.payee.baseUrl : undefined, ...assess(loadRegistry(), tests, [], { strict: false, catalogue }) };
  } finally {
    await target.close();
  }
}

/** What was not passed, readable in a failed expectation. */
const trouble = (a: Awaited<ReturnType<typeof certify>>) => [
  ...a.requirements.filter((r) => r.deciding && r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.reason ?? ''}`),
  ...a.tests.filter((t) => t.status === 'failed' || t.status === 'error').map((t) => `${t.id} ${t.status}: ${t.reason ?? ''}`),
];

describe('the suite against the reference under legal base URLs', () => {
  const conformant = async (reference: ReferenceOptions, url: RegExp) => {
    const assessed = await certify(reference);
    expect(assessed.url).toMatch(url);
    expect(trouble(assessed)).toEqual([]);
    expect(assessed.verdict).toBe('conformant');
  };

  it.skipIf(!hasIpv6)(`is conformant on the IPv6 loopback${hasIpv6 ? '' : ' (skipped: this machine has no IPv6 loopback, ::1)'}`, () => conformant({ host: '::1', basePath: '' }, /^https:\/\/\[::1\]:\d+$/), 240_000);

  // The embedded reference a run certifies serves under a base path of its own (EMBEDDED_REFERENCE_OPTIONS): the root is a legal base URL too.
  it.each<[string, string, RegExp]>([
    ['no path (the root of its host)', '', /^https:\/\/127\.0\.0\.1:\d+$/],
    ['a base path with a percent-encoded space', '/shops/acme%20gmbh', /^https:\/\/127\.0\.0\.1:\d+\/shops\/acme%20gmbh$/],
    ['a base path with parentheses', '/pay/acme(eu)', /^https:\/\/127\.0\.0\.1:\d+\/pay\/acme\(eu\)$/],
  ])('is conformant under %s', (_what, basePath, url) => conformant({ basePath }, url), 240_000);
});

describe('a target file naming the payee localhost, which advertises 127.0.0.1', () => {
  let ref: RunningReference;
  let file: string;
  const work = workDir('host-alias');

  beforeAll(async () => {
    // The embedded reference's policy (two assets): every test runs, none is not applicable by the policy.
    ref = await startReference({ host: '127.0.0.1', policy: EMBEDDED_REFERENCE_OPTIONS.policy! });
    const { port } = new URL(ref.url);
    const alias = `https://localhost:${port}`;
    const tls = ['  tls:', `    ca_file: ${ref.caFile}`];
    file = join(work, 'target.yaml');
    writeFileSync(
      file,
      [
        'name: reference by another name',
        'payee:',
        '  adapter: http',
        `  base_url: ${alias}`,
        `  plaintext_base_url: http://localhost:${new URL(ref.plaintextUrl!).port}`,
        ...tls,
        'operator:',
        '  adapter: http',
        `  base_url: ${alias}`,
        ...tls,
        'paying_app:',
        '  adapter: module',
        `  module: ${REFERENCE_ADAPTER}`,
        `  settings: { clock_from: "${alias}" }`,
        ...tls,
        '',
      ].join('\n'),
    );
  });

  afterAll(async () => {
    await ref?.close();
  });

  it('ends in HARNESS_HOST_NOT_ALLOWED (exit 2), said once, with no requirement failed', async () => {
    const dir = join(work, 'refused');
    const r = await cliHere(['run', '--target', file, '--property-runs', '3', '--report-dir', dir]);
    const report = readReport(join(dir, 'report.json'));
    expect(r.status).toBe(2);
    expect(report.verdict).toBe('error');
    expect(report.requirements.filter((q) => q.status === 'failed')).toEqual([]);
    const refused = report.tests.filter((t) => t.error_code === 'HARNESS_HOST_NOT_ALLOWED').map((t) => t.id);
    expect(refused).toEqual(expect.arrayContaining(['DLV-DEEP-001', 'DLV-RESOLVE-001', 'DLV-RESOLVE-002']));
    expect(report.tests.filter((t) => t.status === 'error' && t.error_code !== 'HARNESS_HOST_NOT_ALLOWED')).toEqual([]);
    // The payee's own side of the URI rules is still judged, and passes: its URIs carry the base URL it advertises.
    for (const id of ['PRF-URI-001', 'DLV-QR-001']) expect(report.tests.find((t) => t.id === id)?.status, id).toBe('passed');
    const host = `127.0.0.1:${new URL(ref.url).port}`;
    expect(r.stderr.split('HARNESS_HOST_NOT_ALLOWED: the payee advertises its base URL as')).toHaveLength(2);
    expect(r.stderr).toContain(`--allow-host ${host}`);
    expect(report.errors).toEqual([{ code: 'HARNESS_HOST_NOT_ALLOWED', message: expect.stringContaining(`${refused.length} test(s) stopped at a delivery URI`) }]);
  }, 240_000);

  it('is conformant with --allow-host 127.0.0.1', async () => {
    const dir = join(work, 'allowed');
    const r = await cliHere(['run', '--target', file, '--allow-host', '127.0.0.1', '--property-runs', '3', '--report-dir', dir]);
    const report = readReport(join(dir, 'report.json'));
    expect(report.tests.filter((t) => t.status !== 'passed').map((t) => `${t.id} ${t.status}: ${t.reason ?? ''}`)).toEqual([]);
    expect(report.verdict).toBe('conformant');
    expect(r.status).toBe(0);
    expect(r.stderr).not.toContain('HARNESS_HOST_NOT_ALLOWED');
  }, 240_000);
});
