// A target built against an earlier profile version is told, in the report,
// which rules changed since and when: in the failing check's message, in a
// note on the target (report.json, summary.md, report.html, the terminal) and
// through explain.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startReference, type RunningReference } from '../../reference/start.ts';
import { cliHere, report, workDir } from './hostile/support.ts';

vi.setConfig({ testTimeout: 120_000 });

describe('a target that names CPP-PROFILE-1.0 (mutant op-policy-older-profile)', () => {
  let ref: RunningReference;
  const out = workDir('older-profile');
  let run: Awaited<ReturnType<typeof cliHere>>;
  beforeAll(async () => {
    ref = await startReference({ mutant: 'op-policy-older-profile', plaintextPort: null });
    run = await cliHere(['run', '--target', ref.url, '--ca', ref.caFile, '--only', 'CPP-WK-001', '--no-properties', '--report-dir', out]);
  }, 120_000);
  afterAll(async () => {
    await ref.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('fails PRF-WK-1 with a message that names §2.4 and the other rules changed since, with their dates', () => {
    expect(run.status).toBe(1);
    const r = report(out);
    const failed = r.tests.find((t) => t.id === 'CPP-WK-001')!.checks.filter((c) => !c.passed);
    expect(failed.map((c) => [c.check, c.requirement, c.expected, c.actual])).toEqual([['profile_id', 'PRF-WK-1', 'CPP-PROFILE-1.4', 'CPP-PROFILE-1.0']]);
    expect(failed[0]!.message).toMatch(/^CPP-PROFILE-1\.0 \(2026-11-21\) is an earlier version of this profile; this harness tests CPP-PROFILE-1\.4\. Changed since: §2\.4 \(CPP-PROFILE-1\.1, 2026-11-25\)/);
    expect(failed[0]!.message).toContain('§4.3 (CPP-PROFILE-1.1, 2026-11-25)');
    expect(failed[0]!.message).toContain('§4.7 (CPP-PROFILE-1.2, 2026-11-26)');
    expect(failed[0]!.message).toContain('§7.3, §7.4, §8.3 (CPP-PROFILE-1.3, 2026-11-26)');
  });

  it('notes it on the target in report.json, summary.md, report.html and the terminal', () => {
    const notice = report(out).run.target.profile_notice!;
    expect(notice).toMatch(/^the operator's policy document names another profile: CPP-PROFILE-1\.0 \(2026-11-21\) is an earlier version/);
    expect(notice).toContain('§2.4 (CPP-PROFILE-1.1, 2026-11-25)');
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('**Target**: the operator\'s policy document names another profile: CPP-PROFILE-1.0 (2026-11-21)');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('Target: the operator&#39;s policy document names another profile: CPP-PROFILE-1.0 (2026-11-21)');
    expect(run.stdout).toMatch(/^warning: the operator's policy document names another profile: CPP-PROFILE-1\.0 .*§2\.4/m);
  });

  it('explain says it for the requirement and the test of that report, and lists the changes for the identifier', async () => {
    const requirement = await cliHere(['explain', 'PRF-WK-1', '--report', join(out, 'report.json')]);
    expect(requirement.stdout).toMatch(/^ {2}note: the operator's policy document names another profile: CPP-PROFILE-1\.0 .*§2\.4/m);
    const test = await cliHere(['explain', 'CPP-WK-001', '--report', join(out, 'report.json')]);
    expect(test.stdout).toMatch(/profile_id \(PRF-WK-1\) at step 1: CPP-PROFILE-1\.0 \(2026-11-21\) is an earlier version/);
    const version = await cliHere(['explain', 'CPP-PROFILE-1.0']);
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(/^CPP-PROFILE-1\.0 {2}\(a profile version, 2026-11-21; this harness tests CPP-PROFILE-1\.4\)/);
    expect(version.stdout).toMatch(/^ {2}CPP-PROFILE-1\.1 \(2026-11-25\)\n {4}§2\.4: the form of an HTTP Message Signature is exact/m);
  });
});

describe('a target that names this profile', () => {
  it('gets no note', async () => {
    const ref = await startReference({ plaintextPort: null });
    const out = workDir('current-profile');
    try {
      const r = await cliHere(['run', '--target', ref.url, '--ca', ref.caFile, '--only', 'CPP-WK-001', '--no-properties', '--report-dir', out]);
      expect(r.stdout).not.toMatch(/names another profile/);
      expect(report(out).run.target.profile_notice).toBeUndefined();
      expect(report(out).tests[0]!.status).toBe('passed');
    } finally {
      await ref.close();
      rmSync(out, { recursive: true, force: true });
    }
  });
});
