// The published package: what `npm pack` puts in it (what runs, no tests,
// fixtures or examples), and, with CPR_PACK_TEST=1 (.ci/run sets it after
// `npm test`), that the tarball installed into an empty folder, away from
// this clone, runs the commands an implementer uses. The install fetches the
// dependencies from the npm registry and the certification runs the whole
// suite: a minute or more, so `npm test` leaves it out.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { suiteDigest } from '../harness/certify/suite.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PACK_TEST = process.env['CPR_PACK_TEST'] === '1';
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; private?: boolean; files: string[]; bin: Record<string, string> };

function npm(args: string[], cwd: string, timeout = 300_000): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the package npm publishes', () => {
  const packed = npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT, 60_000);
  const files = (JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);

  it('is publishable: not private, a version, a bin that is in it', () => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    for (const bin of Object.values(manifest.bin)) expect(files).toContain(bin);
  });

  it('holds what runs: the command, the harness, the profile, the reference, the suites and vectors', () => {
    for (const path of ['bin/cpr-conformance.js', 'harness/cli/main.ts', 'harness/report/report.schema.json', 'profile/registry.ts', 'reference/start.ts', 'suites/requirements.yaml', 'vectors/vector.schema.json', 'PROFILE.md', 'README.md', 'package.json']) {
      expect(files, path).toContain(path);
    }
  });

  it('holds no tests, fixtures, examples, CI scripts or reports', () => {
    expect(files.filter((f) => /^(test|examples|\.ci|reports)\//.test(f) || /\.test\.ts$/.test(f) || f.includes('fixtures/'))).toEqual([]);
  });

  it('holds every file the suite digest covers, so an install names the same suite as this clone', () => {
    for (const { path } of suiteDigest().files) expect(files, path).toContain(path);
  });
});

describe.skipIf(!PACK_TEST)('the packed tarball installed into an empty folder (CPR_PACK_TEST=1)', () => {
  // Everything happens outside the clone: the tarball is copied out, and the commands run where it was installed.
  const work = mkdtempSync(join(tmpdir(), 'cpr-pack-'));
  const app = join(work, 'implementer');
  const cli = (args: string[], timeout = 600_000) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', NO_COLOR: '1' };
    delete env['CPR_SPEC'];
    const r = spawnSync('npx', ['--no-install', 'cpr-conformance', ...args], { cwd: app, encoding: 'utf8', timeout, env });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('installs with nothing but npm install <tarball>', () => {
    const pack = npm(['pack', '--ignore-scripts', '--pack-destination', work], ROOT, 120_000);
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
    expect(tarball).toBe(`${manifest.name}-${manifest.version}.tgz`);
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'implementer', version: '1.0.0', private: true })}\n`);
    const install = npm(['install', join(work, tarball)], app, 600_000);
    expect(install.status, install.stderr).toBe(0);
    expect(existsSync(join(app, 'node_modules', '.bin', 'cpr-conformance'))).toBe(true);
  }, 660_000);

  it('prints its version and the same suite digest as this clone', () => {
    const r = cli(['--version']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`cpr-conformance ${manifest.version} (`);
    expect(r.stdout).toContain(`suite digest sha256:${suiteDigest().digest}`);
    // The installed package builds its sources as a clone does (esbuild is a dependency), into its own node_modules/.cache.
    expect(r.stdout).toMatch(/\nruns from the launcher's build of the sources, .*\/node_modules\/cpr-conformance\/node_modules\/\.cache\/cpr-conformance\/[0-9a-f]{16}\/\n$/);
  }, 300_000);

  it('lists and explains, saying the spec is not shown', () => {
    const list = cli(['list', '--role', 'operator']);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/CPP-ISS-001/);
    const explain = cli(['explain', 'CPP-DEPTH-1']);
    expect(explain.status, explain.stderr).toBe(0);
    expect(explain.stdout).toMatch(/^CPP-DEPTH-1 {2}MUST/);
    expect(explain.stdout).toContain("the spec's text is not shown");
  }, 300_000);

  it('runs against the embedded reference, writing its reports in the folder it runs in', () => {
    const r = cli(['run', '--only', 'CPP-ISS-001', '--no-properties']);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/^PASS CPP-ISS-001 /m);
    const reports = readdirSync(join(app, 'reports'));
    expect(reports).toHaveLength(1);
    expect(existsSync(join(app, 'reports', reports[0]!, 'report.json'))).toBe(true);
    expect(existsSync(join(app, 'node_modules', 'cpr-conformance', 'reports'))).toBe(false);
  }, 600_000);

  it('certifies the embedded reference, and verify-package checks the package', () => {
    const certified = cli(['certify', '--out', 'cert.tar.gz', '--report-dir', 'certify-run']);
    expect(certified.status, `${certified.stdout}\n${certified.stderr}`).toBe(0);
    const kid = /signed by key (\S+), generated for this package/.exec(certified.stdout)?.[1];
    expect(kid).toBeDefined();
    const verified = cli(['verify-package', 'cert.tar.gz', `--kid=${kid!}`]);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/conformant/);
  }, 900_000);
});
