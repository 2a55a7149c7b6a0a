// `fuzz` against misbehaving targets: it ends within its budget, reports a
// target that does not answer (or stops answering) as unreachable and one that
// cannot be fuzzed as such (exit 2), never as a finding (exit 1, with crash
// files), and prints nothing the terminal would act on.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../harness/cli/main.ts';
import { startReference, type RunningReference } from '../../../reference/start.ts';
import { startHostile, type Behaviour, type HostileOptions, type HostileServer } from '../../fixtures/hostile/servers.ts';
import { cli, TERMINAL_CONTROL, workDir } from './support.ts';

vi.setConfig({ testTimeout: 60_000 });

const work = workDir('fuzz');
const servers: HostileServer[] = [];
let reference: RunningReference;

beforeAll(async () => {
  reference = await startReference({ port: 0, plaintextPort: 0 });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await reference.close();
});

/** `cpr-conformance fuzz ...` in this process, its output captured. */
async function fuzzHere(args: string[]): Promise<{ status: number; output: string }> {
  let output = '';
  const capture = (chunk: string | Uint8Array) => {
    output += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    const status = await main(['fuzz', ...args]);
    return { status, output };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const FUZZ_CAPS = ['provision', 'clock', 'balance', 'cancel'];

describe('fuzz against a misbehaving operator', () => {
  it.each<[Behaviour, HostileOptions, RegExp]>([
    ['silent', {}, /HARNESS_TARGET_UNREACHABLE: .*no complete response within 1000 ms/],
    ['reset', {}, /HARNESS_TARGET_UNREACHABLE: .*(ECONNRESET|RESET)/],
    ['trickle', { answerPreflight: true, capabilities: FUZZ_CAPS }, /CONFIG_INVALID: the Operator Policy Document could not be read \(HTTP 404/],
    ['server-errors', { answerPreflight: false }, /CONFIG_INVALID: the operator of .* lacks the test-control capabilities provision, clock, balance, cancel/],
    ['invalid-json', {}, /CONFIG_INVALID: the operator of .* lacks the test-control capabilities/],
    ['wrong-content-type', {}, /CONFIG_INVALID: the operator of .* lacks the test-control capabilities/],
    ['redirect-loop', {}, /CONFIG_INVALID: the operator of .* lacks the test-control capabilities/],
    ['endless-body', { answerPreflight: true, capabilities: FUZZ_CAPS }, /CONFIG_INVALID: the Operator Policy Document could not be read/],
    ['huge-body', {}, /CONFIG_INVALID: the operator of .* lacks the test-control capabilities/],
    ['redirect-away', {}, /CONFIG_INVALID: the operator of .* lacks the test-control capabilities/],
    ['injection', {}, /CONFIG_INVALID: the Operator Policy Document could not be read \(HTTP 400/],
    ['echo', {}, /CONFIG_INVALID: the Operator Policy Document could not be read \(HTTP 400/],
    ['qr-elsewhere', {}, /CONFIG_INVALID: the operator of .* lacks the test-control capabilities clock, balance, cancel/],
  ])('%s: exits 2 at once, with no finding and no control character', async (behaviour, options, why) => {
    const server = await startHostile(behaviour, options);
    servers.push(server);
    const out = join(work, behaviour);
    const r = await fuzzHere(['--target', server.url, '--time', '5', '--request-timeout', '1000', '--seed', '1', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.output).toMatch(why);
    // Refused before the campaign: not one cash-pack operation was sent.
    expect(server.stats.paths.filter((p) => p.includes('/v1/cashpack/'))).toEqual([]);
    expect(TERMINAL_CONTROL.test(r.output)).toBe(false);
    expect(() => readdirSync(out)).toThrow(); // nothing found, so nothing written
  });

  it('ends within its budget when the operator dies in the middle of the campaign (the command line)', async () => {
    const proxy = await startHostile('dies', { upstream: { url: reference.url, ca: reference.tls.ca }, dieAfter: 150 });
    servers.push(proxy);
    const out = join(work, 'dies');
    const r = await cli(['fuzz', '--target', proxy.url, '--time', '20', '--request-timeout', '1000', '--seed', '7', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/HARNESS_TARGET_UNREACHABLE: the operator stopped answering: TIMEOUT/);
    // It died long before the 20 s budget: the campaign ended on the dead operator, not on the budget.
    expect(proxy.stats.requests).toBeGreaterThan(150);
    expect(r.stdout).not.toMatch(/nothing found|ops\/s$/m);
    expect(() => readdirSync(out)).toThrow();
  });
});
