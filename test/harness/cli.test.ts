import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { PROFILE_ID } from '../../profile/version.ts';
import { suiteDigest } from '../../harness/certify/suite.ts';
import { cliHere } from './hostile/support.ts';
import { main } from '../../harness/cli/main.ts';

// These tests spawn the command line; under load a start takes seconds.
vi.setConfig({ testTimeout: 60_000 });

const BIN = fileURLToPath(new URL('../../bin/cpr-conformance.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000 });
/**
 * The command line in this process: main() with stdout and stderr captured. The
 * launcher (bin/cpr-conformance.js) adds only tsx and the exit; the tests that
 * need a real process (signals, the fuzzer's child Node, the launcher's exit)
 * spawn it.
 */
const inProcess = (...args: string[]) => cliHere(args);
/** In this process with these environment variables: main() reads the environment it is given, not the process's. */
const inProcessWith = (env: Record<string, string>, ...args: string[]) => cliHere(args, { env });

describe('cpr-conformance command line', () => {
  it('prints its commands with --help and exits 0', async () => {
    const r = await inProcess('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: cpr-conformance <command>/);
    expect(r.stdout).toMatch(/serve/);
  });

  it('writes to the streams and reads the environment main() is given, never the process\'s', async () => {
    const out = { stdout: '', stderr: '' };
    const io = { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) }, env: { CPR_SPEC: join(tmpdir(), 'given-spec.md') } };
    const stdout = vi.spyOn(process.stdout, 'write');
    const stderr = vi.spyOn(process.stderr, 'write');
    try {
      expect(await main(['explain', 'CPP-RPL-1'], io)).toBe(0);
      expect(await main(['rn'], io)).toBe(2);
      expect(stdout).not.toHaveBeenCalled();
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
    expect(out.stdout).toContain('given-spec.md is not there');
    expect(out.stderr).toMatch(/^cpr-conformance: USAGE_ERROR: unknown command "rn"/);
  });

  it('says that a run was interrupted on the stderr main() is given, never the process\'s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpr-cli-interrupt-'));
    const out = { stdout: '', stderr: '' };
    let signalled = false;
    const io = {
      stdout: {
        write: (t: string) => {
          out.stdout += t;
          // Ctrl-C once the tests are under way, as a user would press it.
          if (!signalled && /^PASS /m.test(out.stdout)) {
            signalled = true;
            process.emit('SIGINT');
          }
        },
      },
      stderr: { write: (t: string) => (out.stderr += t) },
      env: { ...process.env, CI: 'true' },
    };
    const stdout = vi.spyOn(process.stdout, 'write');
    const stderr = vi.spyOn(process.stderr, 'write');
    try {
      expect(await main(['run', '--only', 'CPP-', '--no-properties', '--reporter', 'json', '--report-dir', dir], io)).toBe(2);
      expect(stdout).not.toHaveBeenCalled();
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(signalled).toBe(true);
    expect(out.stderr).toBe('cpr-conformance: interrupted: stopping the run and writing a partial report (again to exit at once)\n');
  });

  it('exits 2 and prints usage when no command is given', async () => {
    const r = await inProcess();
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/Usage:/);
  });

  it.each([
    [['frobnicate'], /USAGE_ERROR: unknown command "frobnicate"/],
    [['serve', '--bogus'], /USAGE_ERROR: Unknown option '--bogus'/],
    [['serve', '--port', 'eighty'], /USAGE_ERROR: --port takes a whole number/],
    [['serve', '--policy', '/nonexistent/policy.yaml'], /USAGE_ERROR: cannot read --policy/],
    [['serve', '--base-path', 'shops'], /USAGE_ERROR: --base-path: "shops": it must start with "\/"/],
    [['serve', '--base-path', '/shops/'], /USAGE_ERROR: --base-path: "\/shops\/": must not end with a slash/],
    // fuzz and bench run in a child Node (bin/cpr-conformance.js): its code and words come through.
    [['fuzz', '--bogus'], /USAGE_ERROR: Unknown option '--bogus'/],
    [['bench', '--bogus'], /USAGE_ERROR: Unknown option '--bogus'/],
    // A near miss names what was probably meant.
    [['rn'], /USAGE_ERROR: unknown command "rn" \(did you mean "run"\?\)/],
    [['run', '--baselin', 'x'], /Unknown option '--baselin' \(did you mean --baseline\?\)/],
    [['run', '--target-file', 'x'], /Unknown option '--target-file' \(did you mean --target\?\)/],
    [['vectors', 'verify', '--kidn', 'jcs'], /Unknown option '--kidn' \(did you mean --kind\?\)/],
    [['vectors', 'genrate'], /unknown vectors command "genrate" \(did you mean "generate"\?\)/],
    [['report', 'merg', 'x'], /unknown report command "merg" \(did you mean "merge"\?\)/],
    // An option before the subcommand is judged as an option, not as a command's name.
    [['report', '--report-di', 'x'], /Unknown option '--report-di' \(did you mean --report-dir\?\)/],
    [['report', '--strict', 'merge', 'x'], /USAGE_ERROR: report takes its command first, then --strict/],
    [['explain', 'CPP-RPL1'], /no requirement, scenario, property, error code or profile version is "CPP-RPL1" \(did you mean CPP-RPL-1\?\)/],
    [['help', 'rnu'], /unknown command "rnu" \(did you mean "run"\?\)/],
    // Nothing close: no guess.
    [['frobnicate-everything'], /unknown command "frobnicate-everything"\n/],
    // A code's own hint names the command that failed.
    [['replay', '/nonexistent/crash.json'], /USAGE_ERROR: cannot read \/nonexistent\/crash\.json.*\n {2}hint: see: cpr-conformance replay --help\n/],
    [['report', 'merge', '/nonexistent/shard'], /USAGE_ERROR: cannot read report .*\n {2}hint: see: cpr-conformance report --help\n/],
  ])('rejects %j with a stable code, a hint and exit 2', async (args, message) => {
    // fuzz and bench go through the launcher's child Node: spawned, as a user runs them.
    const r = args[0] === 'fuzz' || args[0] === 'bench' || args[0] === 'frobnicate' ? run(...args) : await inProcess(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/\n  hint: \S/);
    expect(r.stderr).not.toContain('<command>');
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
      // It released the target (its test-control lease) first, and ends as an interrupted run does: exit 2.
      expect(signal ?? code).toBe(2);
      expect(out).toMatch(/interrupted: releasing the target and stopping the campaign/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it.each([['--version'], ['-V'], ['version']])('prints the suite, profile, spec and Node versions with %s and exits 0', async (flag) => {
    const r = flag === '--version' ? run(flag) : await inProcess(flag);
    expect(r.status).toBe(0);
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    // Spawned, the launcher runs its build of the sources; in process, these tests run the sources.
    const from = flag === '--version' ? "runs from the launcher's build of the sources, [^\n]+/node_modules/\\.cache/cpr-conformance/[0-9a-f]{16}/" : 'runs from the TypeScript sources';
    const head = `cpr-conformance ${version} (profile ${PROFILE_ID}; CPR-1.0 (1.0.0 Draft), CPP-001 (1.0.0 Draft); node ${process.version})\nsuite digest sha256:${suiteDigest().digest} (suites/, profile/, PROFILE.md and the judging code under harness/)\n`;
    expect(r.stdout.startsWith(head)).toBe(true);
    expect(r.stdout.slice(head.length)).toMatch(new RegExp(`^${from}\\n$`));
  });

  it('prints a command\'s own help with help COMMAND', async () => {
    for (const name of ['run', 'fuzz', 'report']) {
      const r = await inProcess('help', name);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe((await inProcess(name, '--help')).stdout);
      expect(r.stdout).toMatch(new RegExp(`^Usage: cpr-conformance ${name}`));
    }
  });

  it('coverage --check says the field coverage table is whole and current; --json gives its rows', async () => {
    const check = await inProcess('coverage', '--check');
    expect(check.status, check.stdout).toBe(0);
    expect(check.stdout).toMatch(/^field coverage: \d+ pairs, every one covered, README.md current$/m);
    const rows = JSON.parse((await inProcess('coverage', '--json')).stdout) as { field: string; class: string; covered_by: { property: string }[] }[];
    expect(rows.find((r) => r.field === 'cpr/memo' && r.class === 'text.length')?.covered_by).toContainEqual({ property: 'PROP-APP-010' });
    expect((await inProcess('coverage', '--bogus')).status).toBe(2);
  });

  it('explain quotes the spec\'s section from the file CPR_SPEC names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpr-spec-'));
    const spec = join(dir, 'spec.md');
    writeFileSync(spec, '# Spec\n\n### 7.1 Cash-pack error codes\n\nA sentence only this file has.\n\n### 7.2 Next\n\nNot this one.\n');
    try {
      const r = await inProcessWith({ CPR_SPEC: spec }, 'explain', 'CPP-RPL-1');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('§7.1 of the spec:');
      expect(r.stdout).toContain('A sentence only this file has.');
      expect(r.stdout).not.toContain('Not this one.');
      expect(r.stdout).toMatch(/covered by \d+ scenario/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('explain says why no spec text is shown when the spec is not there', async () => {
    const r = await inProcessWith({ CPR_SPEC: join(tmpdir(), 'no-such-spec.md') }, 'explain', 'CPP-RPL-1');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('the spec\'s text is not shown');
    expect(r.stdout).toContain('no-such-spec.md is not there');
    expect(r.stdout).toContain('CPR_SPEC');
    expect(r.stdout).toMatch(/covered by \d+ scenario/);
  });

  it('explains every serve option with serve --help', async () => {
    const r = await inProcess('serve', '--help');
    expect(r.status).toBe(0);
    for (const option of ['--host', '--base-path', '--port', '--plaintext-port', '--no-plaintext', '--ca-out', '--freeze-clock', '--token-lifetime', '--request-validity', '--policy', '--control-token', '--no-control', '--json']) {
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
      expect(facts.profile).toBe(PROFILE_ID);
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
