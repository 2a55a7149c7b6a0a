import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

// These tests spawn the command line; under load a start takes seconds.
vi.setConfig({ testTimeout: 60_000 });

const BIN = fileURLToPath(new URL('../../bin/cpr-conformance.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000 });

describe('cpr-conformance command line', () => {
  it('prints its commands with --help and exits 0', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: cpr-conformance <command>/);
    expect(r.stdout).toMatch(/serve/);
  });

  it('exits 2 and prints usage when no command is given', () => {
    const r = run();
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/Usage:/);
  });

  it.each([
    [['frobnicate'], /USAGE_ERROR: unknown command "frobnicate"/],
    [['serve', '--bogus'], /USAGE_ERROR: Unknown option '--bogus'/],
    [['serve', '--port', 'eighty'], /USAGE_ERROR: --port takes a whole number/],
    [['serve', '--policy', '/nonexistent/policy.yaml'], /USAGE_ERROR: cannot read --policy/],
    // fuzz and bench run in a child Node (bin/cpr-conformance.js): its code and words come through.
    [['fuzz', '--bogus'], /USAGE_ERROR: Unknown option '--bogus'/],
    [['bench', '--bogus'], /USAGE_ERROR: Unknown option '--bogus'/],
  ])('rejects %j with a stable code, a hint and exit 2', (args, message) => {
    const r = run(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/\n  hint: \S/);
  });

  it('ends a fuzz campaign, and the Node it runs in, when the command is sent SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'fuzz', '--time', '60', '--seed', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
    let out = '';
    child.stderr.on('data', (d: Buffer) => void (out += d.toString()));
    try {
      // Signalled once it is fuzzing: the campaign runs in the child the launcher started.
      await vi.waitFor(() => expect(out).toMatch(/fuzz exploring/), { timeout: 30_000, interval: 100 });
      child.kill('SIGTERM');
      const [code, signal] = await exited;
      expect(signal ?? code).toBe(143);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('explains every serve option with serve --help', () => {
    const r = run('serve', '--help');
    expect(r.status).toBe(0);
    for (const option of ['--host', '--port', '--plaintext-port', '--no-plaintext', '--ca-out', '--freeze-clock', '--token-lifetime', '--request-validity', '--policy', '--control-token', '--no-control', '--json']) {
      expect(r.stdout).toContain(option);
    }
  });

  it('serve starts the reference, prints its facts, answers over TLS and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--plaintext-port', '0', '--json', '--freeze-clock'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
      });
      const facts = JSON.parse(line) as { url: string; ca_file: string; clock: string; profile: string };
      expect(facts.profile).toBe('CPP-PROFILE-1.0');
      expect(facts.clock).toBe('frozen');
      const agent = new Agent({ connect: { ca: readFileSync(facts.ca_file, 'utf8') } });
      const res = await request(`${facts.url}/.well-known/cashpack-pubkey.json`, { dispatcher: agent });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
      await agent.close();
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
