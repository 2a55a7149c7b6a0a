// Spec §4.5 step 1, §4.4 (file / direct JSON) and PROFILE.md §8.2: cpr_version
// first, then the whole request, then expires_at against the application's clock.
import { parseTimestamp } from '../../profile/index.ts';
import {
  CPR_VERSION,
  EXTENSION_KEY,
  RAIL_HINT_NAMES,
  codePoints,
  identifySubInterface,
  validateCpr,
  type CprValidation,
  type RailHint,
  type Violation,
} from '../../profile/cpr/index.ts';
import { NO_FAULTS, type Faults, type MutantName } from '../mutants.ts';
import { reject, type Accepted, type Rejection } from './rejection.ts';

export function accept(input: unknown, now: number, faults: Faults = NO_FAULTS): Accepted | Rejection {
  // Mutant app-rail-hint-case-folded: rail_hint is upper-cased before it is read, so "on_chain" is taken for ON_CHAIN.
  const doc = faults.has('app-rail-hint-case-folded') ? foldedRailHint(input) : input;
  if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) {
    const version = (doc as Record<string, unknown>).cpr_version;
    // Mutant app-version-unchecked: any version goes on.
    if (version !== CPR_VERSION && !faults.has('app-version-unchecked')) {
      const shown = version === undefined ? 'no cpr_version' : `cpr_version ${JSON.stringify(version)}`;
      return reject('CPR_VERSION_UNSUPPORTED', `This payment request has ${shown}; this application reads ${CPR_VERSION} only.`, {
        violations: [{ requirement: 'CPR-VER-1', path: '/cpr_version', message: `must be "${CPR_VERSION}"` }],
      });
    }
  }
  let result = validateCpr(doc);
  if (faults.active !== undefined) result = mutantValidation(doc, result, faults);
  if (!result.ok) return reject('CPR_INVALID', invalidMessage(result.violations), { violations: result.violations });
  // Mutant app-unknown-rail-hint-crash: a rail name looked up without asking whether the hint is known.
  if (faults.has('app-unknown-rail-hint-crash') && result.cpr.rail_hint !== undefined) RAIL_HINT_NAMES[result.cpr.rail_hint as RailHint].toLowerCase();
  // validateCpr guarantees a parseable expires_at.
  const expires = expiryInstant(result.cpr.expires_at, faults);
  // Spec §4.5.1: expires_at MUST be in the future; the instant itself is too late (PROFILE.md §8.3).
  if (expiredAt(expires, now, faults)) return reject('CPR_EXPIRED', `This payment request expired at ${result.cpr.expires_at} and can no longer be paid.`);
  return { ok: true, cpr: result.cpr, subInterface: result.subInterface, notices: result.notices };
}

/**
 * Mutant app-timestamp-fraction-unbounded: read with Date.parse, whatever the
 * fraction. Mutant app-expiry-local-time: the instant built from its fields with
 * the local-time Date constructor, which is UTC only where the device's zone is.
 */
function expiryInstant(text: string, faults: Faults): number {
  if (faults.has('app-timestamp-fraction-unbounded')) return Date.parse(text);
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/.exec(text);
  if (faults.has('app-expiry-local-time') && m) {
    const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    return new Date(y, mo - 1, d, h, mi, s, Number((m[7] ?? '0').padEnd(3, '0'))).getTime();
  }
  return parseTimestamp(text, 'cpr') ?? -Infinity;
}

function foldedRailHint(doc: unknown): unknown {
  return isJson(doc) && typeof doc.rail_hint === 'string' ? { ...doc, rail_hint: doc.rail_hint.toUpperCase() } : doc;
}

function expiredAt(expires: number, now: number, faults: Faults): boolean {
  if (faults.has('app-past-expiry-accepted')) return false; // mutant: never compared
  if (faults.has('app-expiry-instant-accepted')) return expires < now; // mutant: off by one
  if (faults.has('app-expiry-clock-truncated')) return expires <= Math.floor(now / 1000) * 1000; // mutant: its clock read to the second
  return expires <= now;
}

function invalidMessage(violations: readonly Violation[]): string {
  const [first] = violations;
  if (!first) return 'This payment request is not valid.';
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more problem${violations.length > 2 ? 's' : ''})` : '';
  return `This payment request is not valid: ${first.path || 'the request'} ${first.message} [${first.requirement}]${more}.`;
}

// ---------------------------------------------------------------------------
// Mutants of the validator (reference/mutants.ts): a check that is missing or
// off by one lets one kind of violation through; a check that is too strict adds one.

type Json = Record<string, unknown>;

const FORGIVEN: ReadonlyArray<readonly [MutantName, (violation: Violation, doc: Json) => boolean]> = [
  ['app-version-unchecked', (v) => v.path === '/cpr_version'],
  ['app-memo-141-accepted', (v, doc) => v.path === '/memo' && typeof doc.memo === 'string' && codePoints(doc.memo) <= 141],
  ['app-chain-id-condition-ignored', (v) => v.path === '/value/asset/chain_id' && v.message.startsWith('is required')],
  ['app-payer-field-accepted', (v) => v.requirement === 'CPR-PAYER-1' || v.requirement === 'PRF-PAYER-1'],
  ['app-iban-checksum-unchecked', (v, doc) => v.path.endsWith('/iban') && /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/.test(String(valueAt(doc, v.path)))],
  ['app-leading-zero-amount', (v, doc) => v.path === '/value/amount' && /^0+[1-9][0-9]*$/.test(String(valueAt(doc, v.path)))],
  // A fraction of any length read as RFC 3339 allows it.
  ['app-timestamp-fraction-unbounded', (v, doc) => /^\/(created_at|expires_at)$/.test(v.path) && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{4,9}Z$/.test(String(valueAt(doc, v.path)))],
];

/** The key_type examples of spec §2.5; the list is open, and this mutant forgets it. */
const EXAMPLE_KEY_TYPES = ['CPF', 'PHONE', 'EMAIL', 'EVP', 'UPI_ID'];

const ADDED: ReadonlyArray<readonly [MutantName, (doc: Json) => Violation | undefined]> = [
  [
    'app-unknown-extension-rejected',
    (doc) => {
      const key = Object.keys(isJson(doc.extensions) ? doc.extensions : {}).find((k) => !EXTENSION_KEY.test(k));
      return key === undefined ? undefined : { requirement: 'CPR-EXT-1', path: `/extensions/${key}`, message: 'is not a recognized extension key' };
    },
  ],
  [
    'app-key-type-closed',
    (doc) => {
      const keyType = isJson(doc.payee) && isJson(doc.payee.rail_address) ? doc.payee.rail_address.key_type : undefined;
      return typeof keyType === 'string' && !EXAMPLE_KEY_TYPES.includes(keyType)
        ? { requirement: 'SUB-OPEN-1', path: '/payee/rail_address/key_type', message: `must be one of ${EXAMPLE_KEY_TYPES.join(', ')}` }
        : undefined;
    },
  ],
  [
    // expires_at after created_at, judged to the second.
    'app-validity-compared-in-seconds',
    (doc) => {
      const [created, expires] = [parseTimestamp(doc.created_at, 'cpr'), parseTimestamp(doc.expires_at, 'cpr')];
      return created !== undefined && expires !== undefined && expires > created && Math.floor(expires / 1000) <= Math.floor(created / 1000)
        ? { requirement: 'CPR-TIME-2', path: '/expires_at', message: 'must be after created_at' }
        : undefined;
    },
  ],
  [
    'app-memo-utf16-length',
    (doc) => (typeof doc.memo === 'string' && doc.memo.length > 140 ? { requirement: 'CPR-MEMO-1', path: '/memo', message: 'must be at most 140 characters' } : undefined),
  ],
];

function mutantValidation(doc: unknown, result: CprValidation, faults: Faults): CprValidation {
  if (!isJson(doc)) return result;
  const forgiven = FORGIVEN.filter(([name]) => faults.has(name)).map(([, test]) => test);
  const added = ADDED.filter(([name]) => faults.has(name)).flatMap(([, find]) => find(doc) ?? []);
  const violations = [...(result.ok ? [] : result.violations.filter((v) => !forgiven.some((test) => test(v, doc)))), ...added];
  if (violations.length > 0) return { ok: false, violations };
  if (result.ok) return result;
  const sub = isJson(doc.payee) && isJson(doc.payee.rail_address) ? identifySubInterface(doc.payee.rail_address, doc.rail_hint) : undefined;
  return sub === undefined ? result : { ok: true, cpr: doc as unknown as Extract<CprValidation, { ok: true }>['cpr'], subInterface: sub, notices: [] };
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a JSON Pointer of the CPR (segments without escapes, as the validator writes them). */
function valueAt(doc: Json, path: string): unknown {
  let node: unknown = doc;
  for (const segment of path.split('/').slice(1)) node = isJson(node) ? node[segment] : undefined;
  return node;
}
