// Validators kept in the launcher's build (profile/kept-validators.ts): read
// from a build folder, they answer as the validators Ajv compiles on first use,
// error for error; a build compiles a set once, and again when a schema file
// changed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keptValidators, type ValidatorSpec } from '../../profile/kept-validators.ts';
import { MESSAGE_KINDS, MESSAGE_VALIDATORS, buildLockRequest, createSigningKey, type MessageKind } from '../../profile/cashpack/index.ts';
import { problem } from '../../profile/index.ts';

const buildDir = () => pathToFileURL(`${mkdtempSync(join(tmpdir(), 'cpr-kept-'))}/`);

const key = createSigningKey();
const T = Date.UTC(2026, 0, 1);
const EUR = { type: 'fiat', code: 'EUR' } as const;
const lock = buildLockRequest({ principal: key, amount: '100', asset: EUR, initialBearer: createSigningKey().jwk, requested_expiry: T + 3_600_000, created_at: T });

/** Values of every kind: valid ones, and ones each schema refuses (a member unknown, missing, of another type; a date-time with a fraction; a code in lower case). */
const VALUES: [MessageKind, unknown][] = [
  ['jwk', key.jwk],
  ['jwk', { ...key.jwk, d: 'AAAA' }],
  ['asset', EUR],
  ['asset', { type: 'fiat', code: 'eur' }],
  ['asset', { type: 'stablecoin', code: 'USDC' }],
  ['lock-request', lock],
  ['lock-request', { ...lock, amount: 0 }],
  ['lock-request', { ...lock, created_at: '2026-01-01T00:00:00.5Z' }],
  ['lock-request', { ...lock, created_at: '2026-02-30T00:00:00Z' }],
  ['problem', problem('DUPLICATE_ID', 'seen')],
  ['problem', { type: 1 }],
  ...MESSAGE_KINDS.map((kind): [MessageKind, unknown] => [kind, { unexpected: true }]),
  ...MESSAGE_KINDS.map((kind): [MessageKind, unknown] => [kind, 'not an object']),
];

function answers(validators: Readonly<Record<MessageKind, (value: unknown) => boolean>>): unknown[] {
  return VALUES.map(([kind, value]) => {
    const validate = validators[kind] as ((value: unknown) => boolean) & { errors?: unknown };
    return [kind, validate(value), validate.errors ?? null];
  });
}

describe('keptValidators', () => {
  it('answers from a build folder as the validators compiled on first use, error for error', () => {
    const compiled = answers(keptValidators(MESSAGE_VALIDATORS, undefined));
    const dir = buildDir();
    const written = answers(keptValidators(MESSAGE_VALIDATORS, dir));
    const read = answers(keptValidators(MESSAGE_VALIDATORS, dir));
    expect(written).toEqual(compiled);
    expect(read).toEqual(compiled);
    // Both kinds of answer are there: the comparison is not of empty lists.
    expect(compiled.filter((a) => (a as unknown[])[1] === true).length).toBeGreaterThan(3);
    expect(compiled.filter((a) => (a as unknown[])[1] === false).length).toBeGreaterThan(2 * MESSAGE_KINDS.length);
  });

  it('compiles a set once per build, and again when a schema file changed', () => {
    const dir = buildDir();
    const schemaFile = join(mkdtempSync(join(tmpdir(), 'cpr-kept-schema-')), 'n.schema.json');
    const write = (maximum: number) => writeFileSync(schemaFile, JSON.stringify({ type: 'integer', maximum }));
    let compilations = 0;
    const spec: ValidatorSpec<'n'> = {
      name: 'test',
      inputs: [schemaFile],
      options: { strict: true },
      validators: () => {
        compilations++;
        return { n: JSON.parse(readFileSync(schemaFile, 'utf8')) as object };
      },
    };
    write(5);
    expect(keptValidators(spec, dir).n(5)).toBe(true);
    expect(keptValidators(spec, dir).n(6)).toBe(false);
    expect(compilations).toBe(1);
    write(6);
    expect(keptValidators(spec, dir).n(6)).toBe(true);
    expect(compilations).toBe(2);
  });
});
