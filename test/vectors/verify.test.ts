import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyVectors } from '../../harness/vectors/verify.ts';
import { VECTOR_KINDS, fileNameOf, type VectorFile } from '../../harness/vectors/model.ts';
import { startReference } from '../../reference/start.ts';
import { VECTORS } from './support.ts';

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A copy of vectors/ in which `edit` changed one file. */
function editedCopy(kind: (typeof VECTOR_KINDS)[number], edit: (file: VectorFile) => void): URL {
  const dir = mkdtempSync(join(tmpdir(), 'cpr-vectors-'));
  scratch.push(dir);
  for (const k of VECTOR_KINDS) copyFileSync(new URL(fileNameOf(k), VECTORS), join(dir, fileNameOf(k)));
  const file = JSON.parse(readFileSync(join(dir, fileNameOf(kind)), 'utf8')) as VectorFile;
  edit(file);
  writeFileSync(join(dir, fileNameOf(kind)), JSON.stringify(file));
  return pathToFileURL(`${dir}/`);
}

describe('vectors verify', () => {
  it('passes every case against the reference (pure kinds in-process, sequences over HTTPS)', async () => {
    const report = await verifyVectors();
    const notPassing = report.cases.filter((c) => c.status !== 'pass').map((c) => `${c.file} #${c.tcId} ${c.status}: ${c.detail ?? ''}`);
    expect(notPassing).toEqual([]);
    expect(report.cases.length).toBeGreaterThanOrEqual(200);
    expect(report.exitCode).toBe(0);
  });

  it('reports a mismatch with exit 1 when a case expects the wrong verdict', async () => {
    const dir = editedCopy('signatures', (file) => {
      file.testGroups[0]!.tests[0]!.result = 'invalid';
    });
    const report = await verifyVectors({ dir, kinds: ['signatures'] });
    const first = report.cases.find((c) => c.tcId === 1)!;
    expect(first).toMatchObject({ status: 'fail', expected: 'invalid', got: 'valid' });
    expect(report.exitCode).toBe(1);
  });

  it('fails a sequence step the target answers differently, naming the step', async () => {
    const dir = editedCopy('retrieval-token', (file) => {
      const test = file.testGroups[0]!.tests.find((t) => (t['steps'] as unknown[]).length === 4)!;
      (test['steps'] as { expect: Record<string, unknown> }[])[2]!.expect = { status: 200 };
    });
    const report = await verifyVectors({ dir, kinds: ['retrieval-token'] });
    const failed = report.cases.filter((c) => c.status === 'fail');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.detail).toMatch(/^step 3 \(second use\): expected status 200, got 410 TOKEN_CONSUMED/);
  });

  it('against a remote target runs the sequences and reports the pure kinds as not applicable', async () => {
    const ref = await startReference({ port: 0, plaintextPort: null });
    try {
      const report = await verifyVectors({ target: { kind: 'url', url: ref.url, caFile: ref.caFile }, kinds: ['replay', 'jcs'] });
      expect(report.cases.filter((c) => c.file === 'replay.json').every((c) => c.status === 'pass')).toBe(true);
      const jcs = report.cases.filter((c) => c.file === 'jcs.json');
      expect(jcs.length).toBeGreaterThan(0);
      expect(jcs.every((c) => c.status === 'not-applicable' && /not applicable to a remote target/.test(c.detail ?? ''))).toBe(true);
      expect(report.exitCode).toBe(0);
    } finally {
      await ref.close();
    }
  });

  it('skips, never passes, a sequence whose capability the target lacks', async () => {
    const ref = await startReference({ port: 0, plaintextPort: null, controlEnabled: false });
    try {
      const report = await verifyVectors({ target: { kind: 'url', url: ref.url, caFile: ref.caFile }, kinds: ['retrieval-token'] });
      const needing = report.cases.filter((c) => c.status !== 'pass');
      expect(needing.length).toBeGreaterThan(0);
      expect(needing.every((c) => c.status === 'skipped' && /needs the test-control capabilit/.test(c.detail ?? ''))).toBe(true);
      // The one case that needs nothing (an unknown token) still runs.
      expect(report.cases.some((c) => c.status === 'pass')).toBe(true);
    } finally {
      await ref.close();
    }
  });
});
