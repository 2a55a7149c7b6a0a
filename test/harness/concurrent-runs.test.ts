// Commands sharing one target instance (README "In CI"): the shell fan-out with
// --target, a run beside a fuzzing campaign. With the target's test-control
// lease (PROFILE.md §12) a run that meets another's lease is refused as a
// harness error, never judged; told to wait, it is judged after the other,
// and both come out conformant. The lease is released at the end, on an
// error and on Ctrl-C. Each command is a real process, as a CI job is.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startReference, type RunningReference } from '../../reference/start.ts';
import { cli, report, workDir, type CliResult } from './hostile/support.ts';

// Whole conformance runs, one after the other: their duration follows the machine's load.
vi.setConfig({ testTimeout: 600_000 });

let ref: RunningReference;
let gate: Gate;
const work = workDir('concurrent');
const acquired: string[] = [];
beforeAll(async () => {
  ref = await startReference({ plaintextPort: null });
  // Every lease the reference grants, by holder: what the commands did, seen from the target.
  const acquire = ref.clock.lease.acquire.bind(ref.clock.lease);
  ref.clock.lease.acquire = (holder, ttl) => {
    const answer = acquire(holder, ttl);
    if (answer.ok) acquired.push(holder);
    return answer;
  };
  gate = await leaseGate(ref);
});
afterAll(async () => {
  await gate.close();
  await ref.close();
});

const direct = () => ['--target', ref.url, '--ca', ref.caFile];
const gated = () => ['--target', gate.url, '--ca', ref.caFile];
const SELECTION = ['--only', 'CPP-WK-', '--only', 'TOK-ONCE-', '--no-properties'];
/** Scenarios that freeze, set and advance the target's clock: two of these at once are what turned an honest server non-conformant. */
const CLOCK_MOVING = ['--only', 'CPP-EXP-', '--only', 'PRF-FRESH-', '--only', 'PRF-RPL-', '--only', 'TOK-EXP-', '--no-properties'];

interface Gate {
  readonly url: string;
  /** The next lease release waits until a command has been refused the lease (409 CONTROL_BUSY). */
  holdNextRelease(): void;
  close(): Promise<void>;
}

/**
 * The reference behind a proxy that can hold the release of a lease until
 * another command has been refused it: two commands then meet however slowly
 * each starts on a loaded machine, and nothing else changes (Host is kept, so
 * HTTP Message Signatures verify as sent).
 */
async function leaseGate(target: RunningReference): Promise<Gate> {
  const agent = new Agent({ connect: { ca: target.tls.ca } });
  let refused: Promise<void> = Promise.resolve();
  let open: () => void = () => undefined;
  const server: Server = createServer({ key: target.tls.key, cert: target.tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.method === 'DELETE' && req.url?.startsWith('/_control/lease/')) await refused;
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => v !== undefined && !['connection', 'keep-alive', 'transfer-encoding'].includes(k))) as Record<string, string>;
      const body = Buffer.concat(chunks);
      const answer = await request(`${target.url}${req.url ?? '/'}`, { method: req.method as 'GET', headers, ...(body.length > 0 ? { body } : {}), dispatcher: agent });
      const bytes = Buffer.from(await answer.body.arrayBuffer());
      if (answer.statusCode === 409 && req.url === '/_control/lease') open();
      const out = Object.fromEntries(Object.entries(answer.headers).filter(([k, v]) => v !== undefined && !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k))) as Record<string, string>;
      res.writeHead(answer.statusCode, { ...out, 'content-length': String(bytes.length) }).end(bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    holdNextRelease() {
      refused = new Promise((resolve) => (open = resolve));
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await agent.close();
    },
  };
}

describe('two commands against one target at once', () => {
  it('refuses the one that meets the other\'s lease as HARNESS_TARGET_BUSY (exit 2, every test an error, nothing judged)', async () => {
    const [a, b] = [join(work, 'a'), join(work, 'b')];
    gate.holdNextRelease();
    const results = await Promise.all([a, b].map((dir) => cli(['run', ...gated(), ...SELECTION, '--report-dir', dir])));
    const busy = results.findIndex((r) => r.status === 2);
    expect(busy, results.map((r) => r.stderr).join('\n')).not.toBe(-1);
    // A selection leaves deciding requirements out: the run that went ahead is incomplete, with nothing failed.
    expect(results[1 - busy]!.status).toBe(3);
    expect(report([a, b][1 - busy]!).summary).toMatchObject({ failed: 0, error: 0 });
    const refused = report([a, b][busy]!);
    expect(refused.verdict).toBe('error');
    expect(refused.errors).toEqual([{ code: 'HARNESS_TARGET_BUSY', message: expect.stringMatching(/^the test control of https:\/\/127\.0\.0\.1:\d+ is leased to "cpr-conformance run \(pid \d+ on .+\)" until /) }]);
    expect(refused.tests.length).toBeGreaterThan(0);
    expect(refused.tests.every((t) => t.status === 'error' && t.error_code === 'HARNESS_TARGET_BUSY' && t.transcript.length === 0)).toBe(true);
    expect(refused.requirements.filter((q) => q.status === 'passed' || q.status === 'failed')).toEqual([]);
    expect(results[busy]!.stderr).toMatch(/HARNESS_TARGET_BUSY: .*\n {2}hint: wait for the lease with --lease-wait SECONDS/);
    expect(ref.clock.lease.current()).toBeUndefined();
  });

  it('with --lease-wait, judges both runs of the clock-moving scenarios in turn, and both pass every test', async () => {
    const dirs = [join(work, 'c'), join(work, 'd')];
    const before = acquired.length;
    gate.holdNextRelease();
    const results = await Promise.all(dirs.map((dir) => cli(['run', ...gated(), ...CLOCK_MOVING, '--lease-wait', '600', '--report-dir', dir], { killAfterMs: 500_000 })));
    // A selection is no certification: exit 3 when everything selected passed.
    expect(results.map((r) => r.status), results.map((r) => r.stderr).join('\n')).toEqual([3, 3]);
    for (const dir of dirs) {
      const { tests } = report(dir);
      expect(tests.length).toBeGreaterThan(10);
      expect(tests.filter((t) => t.status !== 'passed').map((t) => `${t.id} ${t.status}: ${t.reason ?? ''}`)).toEqual([]);
    }
    // One waited for the other, and said so.
    expect(results.filter((r) => /is leased to "cpr-conformance run \(pid \d+ on .+\)" until .*: waiting up to 600 s for it/.test(r.stdout))).toHaveLength(1);
    expect(acquired.length - before).toBe(2);
    expect(ref.clock.lease.current()).toBeUndefined();
  });

  it('with --lease-wait, a run and a fuzzing campaign take turns too', async () => {
    const dir = join(work, 'e');
    gate.holdNextRelease();
    const [run, fuzz] = await Promise.all([
      cli(['run', ...gated(), ...SELECTION, '--lease-wait', '600', '--report-dir', dir]),
      cli(['fuzz', ...gated(), '--runs', '2', '--lanes', '2', '--seed', '5', '--lease-wait', '600', '--out', join(work, 'fuzz')]),
    ]);
    expect([run, fuzz].filter((r) => /is leased to "cpr-conformance (run|fuzz) \(pid \d+ on .+\)" until .*: waiting up to 600 s for it/.test(r.stdout))).toHaveLength(1);
    expect(run.status, run.stderr).toBe(3);
    expect(report(dir).summary).toMatchObject({ failed: 0, error: 0 });
    expect(fuzz.status, fuzz.stderr).toBe(0);
    expect(fuzz.stdout).toMatch(/nothing found: every answer matched the model/);
    expect(ref.clock.lease.current()).toBeUndefined();
  });
});

/** Sends the command SIGINT (Ctrl-C) once its output matches `pattern`. */
function interruptAt(pattern: RegExp) {
  let signalled = false;
  return {
    signalled: () => signalled,
    onSpawn: (child: { kill(signal: NodeJS.Signals): boolean; once(event: 'close', listener: () => void): unknown }, output: { stdout(): string }) => {
      const poll = setInterval(() => {
        if (!pattern.test(output.stdout())) return;
        clearInterval(poll);
        signalled = true;
        child.kill('SIGINT');
      }, 50);
      child.once('close', () => clearInterval(poll));
    },
  };
}

describe('the lease is released', () => {
  it('when a run is interrupted (Ctrl-C)', async () => {
    const before = acquired.length;
    // Once a test has passed, the run holds the lease: interrupt it.
    const interrupt = interruptAt(/^PASS /m);
    const r: CliResult = await cli(['run', ...direct(), '--report-dir', join(work, 'interrupted')], { onSpawn: interrupt.onSpawn });
    expect(interrupt.signalled()).toBe(true);
    expect(r.status).toBe(2);
    expect(acquired.length - before).toBe(1);
    expect(ref.clock.lease.current()).toBeUndefined();
  });

  it('when a command fails after taking it (a campaign that lacks a capability it needs)', async () => {
    const file = join(work, 'no-cancel.yaml');
    writeFileSync(file, `name: no cancel\noperator:\n  adapter: http\n  base_url: ${ref.url}\n  tls:\n    ca_file: ${ref.caFile}\n  capabilities: [provision, clock, balance, lease]\n`);
    const before = acquired.length;
    const r = await cli(['fuzz', '--target', file, '--runs', '1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/CONFIG_INVALID: the operator of no cancel lacks the test-control capability cancel/);
    expect(acquired.length - before).toBe(1);
    expect(ref.clock.lease.current()).toBeUndefined();
  });

  it('when a fuzzing campaign is interrupted (Ctrl-C)', async () => {
    const before = acquired.length;
    // The campaign's header is out once it holds the lease and explores.
    const interrupt = interruptAt(/^cpr-conformance fuzz /m);
    const r = await cli(['fuzz', ...direct(), '--time', '600', '--out', join(work, 'fuzz-interrupted')], { onSpawn: interrupt.onSpawn });
    expect(interrupt.signalled()).toBe(true);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/interrupted: releasing the target/);
    expect(acquired.length - before).toBe(1);
    expect(ref.clock.lease.current()).toBeUndefined();
  });
});

describe('vectors verify', () => {
  it('holds the lease while its sequences move the clock: a busy target stops it', async () => {
    const other = ref.clock.lease.acquire('another run', 60);
    try {
      const r = await cli(['vectors', 'verify', ...direct()]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/HARNESS_TARGET_BUSY: the test control of https:\/\/127\.0\.0\.1:\d+ is leased to "another run"/);
    } finally {
      if (other.ok) ref.clock.lease.release(other.lease.id);
    }
    const r = await cli(['vectors', 'verify', ...direct(), '--kind', 'retrieval-token']);
    expect(r.status, r.stdout).toBe(0);
    expect(ref.clock.lease.current()).toBeUndefined();
  });
});
