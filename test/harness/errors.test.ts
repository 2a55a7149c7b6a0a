// The one taxonomy of error codes (harness/errors.ts): every code the harness
// reports is in it, with a hint, and report.schema.json enumerates the same ones.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isProblemCode as isProfileProblemCode } from '../../profile/problems.ts';
import { describe, expect, it } from 'vitest';
import { codesOf, ERRORS, HarnessError } from '../../harness/errors.ts';
import { toHarnessError } from '../../harness/fuzz/campaign.ts';
import { HarnessFault } from '../../harness/fuzz/mismatch.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const schema = JSON.parse(readFileSync(join(ROOT, 'harness/report/report.schema.json'), 'utf8')) as {
  $defs: { testResult: { properties: { error_code: { enum: string[] } } }; harnessIssue: { properties: { code: { enum: string[] } } } };
};
const sources = readdirSync(join(ROOT, 'harness'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: relative(ROOT, join(ROOT, 'harness', f)), text: readFileSync(join(ROOT, 'harness', f), 'utf8') }));

describe('the error taxonomy', () => {
  it('gives every code a summary and a hint', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(entry.summary.length, code).toBeGreaterThan(10);
      expect(entry.hint.length, code).toBeGreaterThan(10);
      expect(entry.scopes.length, code).toBeGreaterThan(0);
    }
  });

  it('is what report.schema.json enumerates for a test error_code and a run issue', () => {
    expect([...schema.$defs.testResult.properties.error_code.enum].sort()).toEqual(codesOf('test').sort());
    expect([...schema.$defs.harnessIssue.properties.code.enum].sort()).toEqual(codesOf('run').sort());
  });

  it('holds every code the harness raises or reports', () => {
    const used = new Set<string>();
    for (const { text } of sources) {
      for (const m of text.matchAll(/new (?:HarnessError|StepError)\(\s*'([A-Z_]+)'/g)) used.add(m[1]!);
      for (const m of text.matchAll(/\b(?:code|error_code):\s*'([A-Z][A-Z0-9_]+)'/g)) used.add(m[1]!);
    }
    // Harness codes have an underscore (transport codes such as TIMEOUT and asset codes such as USD do not);
    // problem codes are the target's vocabulary.
    const unknown = [...used].filter((code) => code.includes('_') && !(code in ERRORS) && !isProblemCode(code));
    expect(used.size).toBeGreaterThan(5);
    expect(unknown).toEqual([]);
  });

  it('has one base class: every other error class of the harness is a HarnessError, or an internal signal caught where it says', () => {
    const internal: string[] = [];
    for (const { file, text } of sources) {
      for (const m of text.matchAll(/^(?:export )?class (\w+) extends (\w+)/gm)) {
        const [, name, base] = m;
        if (base !== 'Error' || (name === 'HarnessError' && file === 'harness/errors.ts')) continue;
        // The doc comment just above the class says where the signal is caught; each of those files does catch it.
        const above = text.slice(0, m.index).split('\n').slice(-6).join('\n');
        const caught = /Internal signal, caught in ([\w/\-]+\.ts(?:, [\w/\-]+\.ts)*)/.exec(above);
        expect(caught, `${file}: ${name} extends Error: make it a HarnessError (a code of the taxonomy) or say where the internal signal is caught`).not.toBeNull();
        for (const where of caught![1]!.split(', ')) {
          const catcher = sources.find((s) => s.file === `harness/${where}`);
          expect(catcher, `${file}: ${name} is said to be caught in ${where}, which does not exist`).toBeDefined();
          expect(catcher!.text, `${file}: ${name} is said to be caught in ${where}`).toMatch(new RegExp(`instanceof ${name}\\b`));
        }
        internal.push(name!);
      }
    }
    expect(internal.sort()).toEqual(['ArgumentError', 'DeadlineError', 'Mismatch', 'StepError', 'TemplateError', 'TemplateError', 'TransportError']);
  });

  it('gives the fuzzer\'s harness fault the code and hint a user saw before it was a HarnessError', () => {
    const fault = new HarnessFault('test control POST /_control/clock answered 500');
    expect(fault).toBeInstanceOf(HarnessError);
    expect(toHarnessError(fault)).toBe(fault);
    expect([fault.code, fault.hint]).toEqual(['CONFIG_INVALID', "the fuzzer sets up fresh state through the target's test control (PROFILE.md §12); it must answer as the profile describes"]);
  });

  it('hints from the taxonomy unless the error gives its own', () => {
    expect(new HarnessError('NOTHING_SELECTED', 'nothing').hint).toBe(ERRORS.NOTHING_SELECTED.hint);
    expect(new HarnessError('USAGE_ERROR', 'bad', 'see: cpr-conformance run --help').hint).toBe('see: cpr-conformance run --help');
  });
});

/** A cash-pack or CPR problem code (PROFILE.md §11, §8.3): the target's vocabulary, not the harness's. */
function isProblemCode(code: string): boolean {
  return isProfileProblemCode(code) || /^(UNAUTHORIZED|INVALID_REQUEST|CPR_[A-Z_]+|RETRIEVAL_FAILED|URI_INVALID|RAIL_UNSUPPORTED|PARTIAL_PAYMENT_UNSUPPORTED|AMOUNT_REQUIRED)$/.test(code);
}
