// Validation of the cash-pack messages (PROFILE.md §4): the JSON Schemas of
// profile/schemas/cashpack/ (compiled once per build, profile/kept-validators.ts), plus the rules a schema
// cannot express (PROFILE.md §1, §2.1, §5 step 1, §11).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { keptValidators, type ValidatorSpec } from '../kept-validators.ts';
import { readJwk } from '../jwk.ts';
import { PROBLEM_STATUS, PROBLEM_TYPE_BASE, isProblemCode } from '../problems.ts';
import { parseTimestamp } from '../time.ts';
import type { MessageKind } from './types.ts';

export const SCHEMA_ID_BASE = 'https://cpr-conformance.dev/schemas/cashpack/';

/** Every message kind, in the order of PROFILE.md §4. */
export const MESSAGE_KINDS = [
  'jwk',
  'asset',
  'lock-request',
  'cash-pack',
  'renewal-entry',
  'renew-request',
  'redemption-request',
  'redeem-request',
  'redemption-confirmation',
  'status',
  'policy',
  'pubkey',
  'problem',
] as const satisfies readonly MessageKind[];

type Validation = { readonly ok: true } | { readonly ok: false; readonly errors: readonly string[] };

const SCHEMA_DIR = new URL('../schemas/cashpack/', import.meta.url);
const SCHEMA_FILES = ['common', ...MESSAGE_KINDS];

/** The messages' validators: the schemas of SCHEMA_DIR, one validator per kind (profile/kept-validators.ts). */
export const MESSAGE_VALIDATORS: ValidatorSpec<MessageKind> = {
  name: 'cashpack',
  inputs: SCHEMA_FILES.map((name) => fileURLToPath(new URL(`${name}.schema.json`, SCHEMA_DIR))),
  // strictRequired is off: the asset schema's conditional `required` names a member declared one level up.
  options: { allErrors: true, strict: true, strictRequired: false },
  // Every date-time in these schemas is a cash-pack timestamp (PROFILE.md §1): whole
  // seconds, and the date and time must exist (no 02-30, no leap second).
  formats: { 'date-time': { type: 'string', validate: (text: string) => parseTimestamp(text, 'cashpack') !== undefined } },
  shared: () => SCHEMA_FILES.map((name) => JSON.parse(readFileSync(new URL(`${name}.schema.json`, SCHEMA_DIR), 'utf8')) as object),
  validators: () => Object.fromEntries(MESSAGE_KINDS.map((k) => [k, `${SCHEMA_ID_BASE}${k}.schema.json`])) as Record<MessageKind, string>,
};

let validators: Readonly<Record<MessageKind, ValidateFunction>> | undefined;

/**
 * A message kind's validator. Importing the profile costs no compilation: the
 * validators are compiled on their first use, or, running from the launcher's
 * build, read compiled from it.
 */
function validatorOf(kind: MessageKind): ValidateFunction {
  validators ??= keptValidators(MESSAGE_VALIDATORS);
  return validators[kind];
}

type Json = Record<string, unknown>;
type SemanticCheck = (value: Json) => string[];

/** Rules beyond the schema, per kind. JWK thumbprints are checked for every kind. */
const SEMANTIC: Partial<Record<MessageKind, SemanticCheck>> = {
  // PROFILE.md §5 renew and redeem step 1: the signed message names the presented pack.
  'renew-request': (v) => samePack(v, 'renewal'),
  'redeem-request': (v) => samePack(v, 'redemption'),
  policy: (v) =>
    (v.expiry_min_seconds as number) <= (v.expiry_max_seconds as number) ? [] : ['/expiry_min_seconds: must not exceed expiry_max_seconds'],
  // PROFILE.md §11: type and status follow from code.
  problem: (v) => {
    const code = v.code;
    if (!isProblemCode(code)) return [];
    const errors: string[] = [];
    if (v.type !== PROBLEM_TYPE_BASE + code) errors.push(`/type: must be ${PROBLEM_TYPE_BASE}${code}`);
    if (v.status !== PROBLEM_STATUS[code]) errors.push(`/status: must be ${PROBLEM_STATUS[code]} for ${code}`);
    return errors;
  },
};

/** Validates `value` as a message of `kind`: schema, then the semantic rules. */
export function validateMessage(kind: MessageKind, value: unknown): Validation {
  const validate = validatorOf(kind);
  // `if` only wraps the failing `then` or `else` branch, which is reported on its own.
  if (!validate(value)) return { ok: false, errors: (validate.errors ?? []).filter((e) => e.keyword !== 'if').map(describe) };
  const object = value as Json;
  // A problem is an open object (RFC 9457 extension members): no JWK walk there.
  const errors = [...(kind === 'problem' ? [] : jwkErrors(object, '')), ...(SEMANTIC[kind]?.(object) ?? [])];
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

function samePack(value: Json, member: string): string[] {
  const pack = value.cash_pack as Json;
  const message = value[member] as Json;
  return pack.pack_id === message.pack_id ? [] : [`/${member}/pack_id: must equal /cash_pack/pack_id`];
}

/**
 * PROFILE.md §2.1: a JWK's kid is its RFC 7638 thumbprint. The schemas are closed,
 * so after schema validation an object with a `kty` member is a JWK; `use` and
 * `alg` only pass the schema in the JWK set of the pubkey document.
 */
function jwkErrors(value: unknown, path: string): string[] {
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => jwkErrors(item, `${path}/${i}`));
  if (Object.hasOwn(value, 'kty')) {
    const result = readJwk(value, ['use', 'alg']);
    return result.ok ? [] : [`${path || '/'}: ${result.reason}`];
  }
  return Object.entries(value).flatMap(([key, child]) => jwkErrors(child, `${path}/${key}`));
}

function describe(error: ErrorObject): string {
  const path = error.instancePath || '/';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `${path}: unknown member "${String(params.additionalProperty)}"`;
  if (error.keyword === 'required') return `${path}: missing member "${String(params.missingProperty)}"`;
  if (error.keyword === 'format') return `${path}: must be a cash-pack timestamp that exists (RFC 3339 UTC, whole seconds)`;
  return `${path}: ${error.message ?? error.keyword}`;
}
