// Reading a crash file: what replay and fuzz merge accept, and the clear
// refusal of anything else (CONFIG_INVALID with what to do).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CRASH_FORMAT, readCrashFile } from '../../../harness/fuzz/crash.ts';

const dir = mkdtempSync(join(tmpdir(), 'cpr-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CRASH = {
  format: CRASH_FORMAT,
  seed: 7,
  setup: { balance: 'max', without: ['stranger'] },
  commands: [{ kind: 'issue', amount: { small: 1 }, expiry: 'typical', signer: 'principal' }],
  failure: { requirement: 'CPP-IDN-1', cause: { requirement: 'CPP-IDN-1', kind: 'redeem', what: 'status', difference: '200 → 403 REDEEMER_NOT_IDENTIFIED' } },
};

function written(name: string, data: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(data));
  return file;
}

describe('readCrashFile', () => {
  it('reads a crash file with its cause and the accounts its world did without', () => {
    expect(readCrashFile(written('ok.json', CRASH))).toMatchObject({ setup: { without: ['stranger'] }, failure: { cause: { requirement: 'CPP-IDN-1' } } });
  });

  it.each([
    ['format 1, which had no cause', { ...CRASH, format: 'cpr-conformance-fuzz-crash/1' }, /it is format 1, written before findings had a cause; run the campaign again .* or replay regression-7\.yaml beside it/],
    ['no cause', { ...CRASH, failure: { requirement: 'CPP-IDN-1' } }, /"failure\.cause" must give requirement, kind, what and difference/],
    ['an account no world has', { ...CRASH, setup: { balance: 'max', without: ['principal'] } }, /"setup\.without" lists accounts among stranger, redeemer, redeemer2, redeemer_low/],
  ])('refuses %s', (_name, data, message) => {
    expect(() => readCrashFile(written('bad.json', data))).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringMatching(message) }));
  });
});
