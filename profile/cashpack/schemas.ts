// Validation of the cash-pack messages (PROFILE.md §4): the JSON Schemas of
// profile/schemas/cashpack/ (each kind compiled on its first use), plus the rules a schema
// cannot express (PROFILE.md §1, §2.1, §5 step 1, §11).
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
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

let ajv: InstanceType<typeof Ajv2020.default> | undefined;
const validators = new Map<MessageKind, ValidateFunction>();

/**
 * A message kind's validator, compiled on its first use (as profile/registry.ts
 * does): importing the profile costs no compilation, and a thread compiles
 * only the kinds it reads (the reference, the requests; the harness, the
 * answers). The schemas are read and added once.
 */
function validatorOf(kind: MessageKind): ValidateFunction {
  let validate = validators.get(kind);
  if (validate !== undefined) return validate;
  if (ajv === undefined) {
    // `.default`: the CommonJS module object under NodeNext typing (see profile/registry.ts).
    // strictRequired is off: the asset schema's conditional `required` names a member declared one level up.
    ajv = new Ajv2020.default({ allErrors: true, strict: true, strictRequired: false });
    // Every date-time in these schemas is a cash-pack timestamp (PROFILE.md §1): whole
    // seconds, and the date and time must exist (no 02-30, no leap second).
    ajv.addFormat('date-time', { type: 'string', validate: (text: string) => parseTimestamp(text, 'cashpack') !== undefined });
    for (const name of SCHEMA_FILES) {
      ajv.addSchema(JSON.parse(readFileSync(new URL(`${name}.schema.json`, SCHEMA_DIR), 'utf8')) as object);
    }
  }
  validate = ajv.getSchema(`${SCHEMA_ID_BASE}${kind}.schema.json`)!;
  validators.set(kind, validate);
  return validate;
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
