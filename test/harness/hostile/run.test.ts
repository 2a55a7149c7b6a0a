// `run` against targets that hang, reset, die, flood or answer nonsense: it ends
// within its bounds, tells an unreachable target from a conformance failure from
// a harness error, keeps going with the roles that answer, and always writes a
// complete report.json (valid against its schema).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestResult } from '../../../harness/report/index.ts';
import { DEFAULT_CONCURRENCY } from '../../../harness/runner/plan.ts';
import { startReference, type RunningReference } from '../../../reference/start.ts';
import { HUGE_BODY_BYTES, startCounter, startHostile, type Behaviour, type HostileOptions, type HostileServer } from '../../fixtures/hostile/servers.ts';
import { cliHere, report, TERMINAL_CONTROL, workDir } from './support.ts';

// Each test runs the command line; a start takes a few seconds under load.
vi.setConfig({ testTimeout: 90_000 });

const work = workDir('run');
const servers: HostileServer[] = [];
let reference: RunningReference;

async function start(behaviour: Behaviour, options: HostileOptions = {}): Promise<HostileServer> {
  const server = await startHostile(behaviour, options);
  servers.push(server);
  return server;
}

/** A target file with the payee and the operator at two places. */
function targetFile(name: string, payee: string, operator: string, extra: { payeeCaps?: string; operatorCaps?: string; operatorCa?: string } = {}): string {
  const file = join(work, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      'payee:',
      '  adapter: http',
      `  base_url: ${payee}`,
      ...(extra.payeeCaps !== undefined ? [`  capabilities: ${extra.payeeCaps}`] : []),
      'operator:',
      '  adapter: http',
      `  base_url: ${operator}`,
      ...(extra.operatorCaps !== undefined ? [`  capabilities: ${extra.operatorCaps}`] : []),
      ...(extra.operatorCa !== undefined ? ['  tls:', `    ca_file: ${extra.operatorCa}`] : []),
      '',
    ].join('\n'),
  );
  return file;
}

const notRun = (t: TestResult) => t.status === 'error' && t.not_run === true;
const codes = (tests: readonly TestResult[]) => new Set(tests.filter((t) => t.status === 'error').map((t) => t.error_code));

beforeAll(async () => {
  reference = await startReference({ port: 0, plaintextPort: 0 });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await reference.close();
});

describe('run against a target that does not answer', () => {
  it.each<[Behaviour, RegExp]>([
    ['silent', /no complete response within 1000 ms/],
    ['reset', /ECONNRESET|RESET/],
  ])('%s: exits 2 within seconds, every test an error with HARNESS_TARGET_UNREACHABLE, the report complete', async (behaviour, why) => {
    const server = await start(behaviour);
    const dir = join(work, behaviour);
    const r = await cliHere(['run', '--target', server.url, '--request-timeout', '1000', '--report-dir', dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/HARNESS_TARGET_UNREACHABLE/);
    expect(r.stderr).toMatch(why);
    // Given up at the preflight: no test sent anything after it.
    expect(server.stats.requests).toBeLessThanOrEqual(4);
    const out = report(dir);
    expect(out.verdict).toBe('error');
    expect(out.run.incomplete).toBe(false);
    expect(out.tests.length).toBeGreaterThan(300);
    // A --target URL has no paying application: those tests would not apply anyway.
    const [inapplicable, unrun] = [out.tests.filter((t) => t.status === 'not-applicable'), out.tests.filter((t) => t.status !== 'not-applicable')];
    expect(inapplicable.every((t) => t.role === 'paying-app')).toBe(true);
    expect(unrun.length).toBeGreaterThan(150);
    expect(unrun.every((t) => t.status === 'error' && t.error_code === 'HARNESS_TARGET_UNREACHABLE' && notRun(t))).toBe(true);
    expect(out.errors.map((e) => e.code)).toEqual(['HARNESS_TARGET_UNREACHABLE']);
    expect(r.stdout).toMatch(/NOT RUN \d+ test\(s\), HARNESS_TARGET_UNREACHABLE: (?!not run)\S/);
    expect(TERMINAL_CONTROL.test(r.stdout + r.stderr)).toBe(false);
  });
});

describe('run against a role that stops answering', () => {
  it('cuts off a payee answering a byte a second after N timeouts and keeps testing the operator', async () => {
    // The trickling payee answers its preflight and discovery, then nothing in time.
    const payee = await start('trickle', { answerPreflight: true, capabilities: ['provision'] });
    const file = targetFile('trickle-payee', payee.url, reference.url, { operatorCa: reference.caFile });
    const dir = join(work, 'trickle');
    const r = await cliHere(['run', '--target', file, '--only', 'TOK-', '--only', 'DLV-', '--only', 'CPP-ISS-', '--only', 'CPP-STS-', '--no-properties', '--request-timeout', '2000', '--unreachable-after', '3', '--report-dir', dir]);
    expect(r.status).toBe(2);
    const out = report(dir);
    const payeeTests = out.tests.filter((t) => t.role === 'payee' && t.status !== 'not-applicable' && t.status !== 'skipped');
    const operatorTests = out.tests.filter((t) => t.role === 'operator');
    // At most N tests wait for a timeout, and those in flight beside them (run's default
    // --concurrency): they wait at once, so the run still ends within N timeouts; every later
    // payee test is reported without being run. (Tests that end sooner, on the trickling payee's
    // quick 404 to a test-control read, are harness errors too.)
    const ran = payeeTests.filter((t) => !notRun(t));
    const waited = ran.filter((t) => /TIMEOUT/.test(t.reason ?? ''));
    expect(waited.length).toBeLessThanOrEqual(3 + DEFAULT_CONCURRENCY - 1);
    expect(waited.every((t) => t.status === 'error' && t.error_code === 'HARNESS_TARGET_UNREACHABLE')).toBe(true);
    expect(ran.filter((t) => !waited.includes(t)).every((t) => t.status === 'error' && t.error_code === 'HARNESS_STEP_FAILED')).toBe(true);
    expect(payeeTests.filter(notRun).length).toBeGreaterThan(5);
    expect(payeeTests.filter(notRun).every((t) => t.error_code === 'HARNESS_TARGET_UNREACHABLE' && /stopped answering \(3 consecutive transport failures/.test(t.reason ?? ''))).toBe(true);
    // The operator answers: its tests ran and passed.
    expect(operatorTests.length).toBeGreaterThanOrEqual(5);
    expect(operatorTests.every((t) => t.status === 'passed')).toBe(true);
    expect(out.errors.some((e) => e.code === 'HARNESS_TARGET_UNREACHABLE')).toBe(true);
  });

  it('ends within seconds when a target dies in the middle of the run', async () => {
    // Enough requests that some tests end before it dies, with 8 of them in flight.
    const proxy = await start('dies', { upstream: { url: reference.url, ca: reference.tls.ca }, dieAfter: 250 });
    const dir = join(work, 'dies');
    const r = await cliHere(['run', '--target', proxy.url, '--only', 'CPP-', '--no-properties', '--request-timeout', '2000', '--unreachable-after', '2', '--report-dir', dir]);
    expect(r.status).toBe(2);
    const out = report(dir);
    expect(out.tests.filter((t) => t.status === 'passed').length).toBeGreaterThan(0);
    expect(out.tests.filter((t) => t.status === 'failed')).toEqual([]);
    // The tests in flight when it died are errors, never failures: N, and those beside them.
    expect(out.tests.filter((t) => t.status === 'error' && !notRun(t)).length).toBeLessThanOrEqual(2 + DEFAULT_CONCURRENCY - 1);
    expect(out.tests.filter(notRun).length).toBeGreaterThan(50);
    expect(codes(out.tests)).toEqual(new Set(['HARNESS_TARGET_UNREACHABLE']));
  });
});

describe('run past its time limit', () => {
  it('starts no test after --time-limit and stops the one in flight: all errors (HARNESS_DEADLINE_EXCEEDED), the report incomplete', async () => {
    const slow = await start('trickle', { answerPreflight: true, capabilities: ['provision'] });
    const dir = join(work, 'time-limit');
    const r = await cliHere(['run', '--target', slow.url, '--no-properties', '--only', 'TOK-', '--time-limit', '1', '--report-dir', dir]);
    expect(r.status).toBe(2);
    const out = report(dir);
    expect(out.run.incomplete).toBe(true);
    const ran = out.tests.filter((t) => t.status !== 'not-applicable' && t.status !== 'skipped');
    expect(ran.length).toBeGreaterThan(5);
    expect(ran.every((t) => t.error_code === 'HARNESS_DEADLINE_EXCEEDED')).toBe(true);
    // At most the test running when the time was up started (it was stopped then); none started after.
    const started = ran.filter((t) => !(t.not_run === true && /^the run's time limit passed at /.test(t.reason ?? '')));
    expect(started.length).toBeLessThanOrEqual(1);
    for (const t of started) expect(t.reason).toMatch(/^stopped: the run's time limit passed at .* while the scenario ran$/);
    expect(out.errors.map((e) => e.code)).toContain('HARNESS_DEADLINE_EXCEEDED');
    // What opening the target reads (capabilities, the payee's config, the target's facts) is no test.
    const opening = ['GET /_control/capabilities', 'GET /_control/payee/config', 'GET /.well-known/cashpack-policy.json', 'GET /.well-known/cashpack-pubkey.json'];
    const sent = slow.stats.paths.filter((p) => !opening.some((o) => p.startsWith(o)));
    expect(sent.length).toBeLessThanOrEqual(started.length);
  });
});

describe('run against a target that answers, wrongly', () => {
  it('caps a 100 MB body and an endless one: bodies truncated, the target never read past the cap', async () => {
    const payee = await start('huge-body', { answerPreflight: true, capabilities: ['provision'] });
    const operator = await start('endless-body', { answerPreflight: true });
    const dir = join(work, 'bodies');
    const r = await cliHere(['run', '--target', targetFile('bodies', payee.url, operator.url), '--no-properties', '--request-timeout', '3000', '--report-dir', dir]);
    expect([1, 2]).toContain(r.status);
    const out = report(dir);
    const truncated = out.tests.flatMap((t) => t.transcript).filter((e) => e.response?.truncated === true);
    expect(truncated.length).toBeGreaterThan(5);
    expect(truncated.every((e) => (e.response?.body ?? '').length <= 4097)).toBe(true);
    // The harness stops reading at 1 MiB: what the servers managed to hand their sockets
    // is that plus the kernel's buffers, nowhere near 100 MB.
    for (const server of [payee, operator]) {
      expect(server.stats.requests).toBeGreaterThan(0);
      expect(server.stats.largestResponse).toBeLessThan(HUGE_BODY_BYTES / 5);
    }
    // An answer, however large, is an answer: never "unreachable", never a harness defect.
    expect(codes(out.tests).has('HARNESS_TARGET_UNREACHABLE')).toBe(false);
    expect(codes(out.tests).has('HARNESS_INTERNAL')).toBe(false);
  });

  it.each<[string, Behaviour, Behaviour, string[]]>([
    // The properties too, once: fast-check meeting nonsense must end as quickly.
    ['invalid JSON and wrong content types', 'invalid-json', 'wrong-content-type', ['--property-runs', '2']],
    ['redirect loops and a storm of 5xx', 'redirect-loop', 'server-errors', ['--no-properties']],
  ])('%s: conformance failures, never an unreachable target or a harness defect', async (_name, a, b, extra) => {
    const payee = await start(a, { answerPreflight: true });
    const operator = await start(b, { answerPreflight: true, capabilities: ['provision', 'clock', 'balance', 'cancel'] });
    const dir = join(work, a);
    const r = await cliHere(['run', '--target', targetFile(a, payee.url, operator.url), ...extra, '--request-timeout', '3000', '--report-dir', dir]);
    const out = report(dir);
    expect(out.tests.filter((t) => t.status === 'failed').length).toBeGreaterThan(3);
    expect(out.tests.filter((t) => t.status === 'passed').length).toBeLessThan(5);
    // A test-control call answered with nonsense is a harness error (setup failed), named as such;
    // the failures observed beside it still make the run non-conformant.
    expect([...codes(out.tests)].every((code) => code === 'HARNESS_STEP_FAILED' || code === 'HARNESS_SETUP_FAILED')).toBe(true);
    expect(r.status).toBe(1);
    expect(out.verdict).toBe('non-conformant');
  });

  it('never follows a redirect to another host', async () => {
    const elsewhere = await startCounter();
    servers.push(elsewhere);
    const target = await start('redirect-away', { answerPreflight: true, capabilities: ['provision'], elsewhere: elsewhere.url });
    const dir = join(work, 'redirect-away');
    const r = await cliHere(['run', '--target', target.url, '--no-properties', '--only', 'TOK-', '--only', 'CPP-WK-', '--only', 'CPP-ERR-', '--request-timeout', '3000', '--report-dir', dir]);
    expect([1, 2]).toContain(r.status);
    const out = report(dir);
    expect(out.tests.flatMap((t) => t.transcript).some((e) => e.response?.status === 302 || e.response?.status === 307)).toBe(true);
    expect(target.stats.requests).toBeGreaterThan(5);
    expect(elsewhere.stats.connections).toBe(0);
  });
});
