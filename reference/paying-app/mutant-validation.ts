// The validator's hand-made faults (reference/mutants.ts): a check that is
// missing or off by one lets one kind of violation through; a check that is too
// strict adds one. Only a mutant reaches this file, so mutation testing leaves
// it out (stryker.config.mjs), as it does the catalogue.
import { parseTimestamp } from '../../profile/index.ts';
import { EXTENSION_KEY, codePoints, identifySubInterface, isPayerMemberName, type CprValidation, type Violation } from '../../profile/cpr/index.ts';
import type { Faults, MutantName } from '../mutants.ts';

type Json = Record<string, unknown>;

const FORGIVEN: ReadonlyArray<readonly [MutantName, (violation: Violation, doc: Json) => boolean]> = [
  ['app-version-unchecked', (v) => v.path === '/cpr_version'],
  ['app-memo-141-accepted', (v, doc) => v.path === '/memo' && typeof doc.memo === 'string' && codePoints(doc.memo) <= 141],
  ['app-chain-id-condition-ignored', (v) => v.path === '/value/asset/chain_id' && v.message.startsWith('is required')],
  ['app-payer-field-accepted', (v) => v.requirement === 'CPR-PAYER-1' || v.requirement === 'PRF-PAYER-1'],
  // Payer data looked for through the request's objects only: a payer member inside an array is not seen.
  ['app-payer-in-array-accepted', (v, doc) => (v.requirement === 'CPR-PAYER-1' || v.requirement === 'PRF-PAYER-1') && throughArray(doc, v.path)],
  // The IBAN's own check only: an iban in another sub-interface's rail_address (PRF-RAIL-1) is still refused.
  ['app-iban-checksum-unchecked', (v, doc) => (v.requirement === 'SUB-IBAN-1' || v.requirement === 'PRF-IBAN-1') && v.path.endsWith('/iban') && /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/.test(String(valueAt(doc, v.path)))],
  // Chains compared as chains: an asset's CAIP-2 eip155:<n> taken for the rail's decimal <n>.
  ['app-caip2-chain-id-equated', (v, doc) => v.path === '/value/asset/chain_id' && v.requirement === 'PRF-RAIL-1' && valueAt(doc, v.path) === `eip155:${String(valueAt(doc, '/payee/rail_address/chain_id'))}`],
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
    // Payer-named members looked for in any letter case: a valid CPR whose extensions hold `Payer` or `AUTHORIZATION` refused.
    'app-payer-names-case-folded',
    (doc) => {
      const path = foldedPayerName(doc, '');
      return path === undefined ? undefined : { requirement: 'CPR-PAYER-1', path, message: 'a CPR carries no payer, authorization or settlement data' };
    },
  ],
  [
    'app-memo-utf16-length',
    (doc) => (typeof doc.memo === 'string' && doc.memo.length > 140 ? { requirement: 'CPR-MEMO-1', path: '/memo', message: 'must be at most 140 characters' } : undefined),
  ],
];

export function mutantValidation(doc: unknown, result: CprValidation, faults: Faults): CprValidation {
  if (!isJson(doc)) return result;
  const forgiven = FORGIVEN.filter(([name]) => faults.has(name)).map(([, test]) => test);
  const added = ADDED.filter(([name]) => faults.has(name)).flatMap(([, find]) => find(doc) ?? []);
  const violations = [...(result.ok ? [] : result.violations.filter((v) => !forgiven.some((test) => test(v, doc)))), ...added];
  // Mutant app-violation-path-dotted: /value/amount written value.amount.
  const dotted = faults.has('app-violation-path-dotted') ? violations.map((v) => ({ ...v, path: v.path.split('/').slice(1).join('.') })) : violations;
  // Mutant app-violation-pointer-unescaped: the pointer's escapes undone for display (~1 to /, ~0 to ~): it names another member, or none.
  const named = faults.has('app-violation-pointer-unescaped') ? dotted.map((v) => ({ ...v, path: v.path.replaceAll('~1', '/').replaceAll('~0', '~') })) : dotted;
  if (named.length > 0) return { ok: false, violations: named };
  if (result.ok) return result;
  const sub = isJson(doc.payee) && isJson(doc.payee.rail_address) ? identifySubInterface(doc.payee.rail_address, doc.rail_hint) : undefined;
  return sub === undefined ? result : { ok: true, cpr: doc as unknown as Extract<CprValidation, { ok: true }>['cpr'], subInterface: sub, notices: [] };
}

/** The path of the first member whose name is a payer name (PROFILE.md §7.5) in another letter case. */
function foldedPayerName(node: unknown, at: string): string | undefined {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) {
      const found = foldedPayerName(item, `${at}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isJson(node)) return undefined;
  for (const [key, child] of Object.entries(node)) {
    if (!isPayerMemberName(key) && isPayerMemberName(key.toLowerCase())) return `${at}/${key}`;
    const found = foldedPayerName(child, `${at}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a JSON Pointer of the CPR (segments without escapes, as the validator writes them). */
/** Whether the JSON Pointer `path` passes through an array on its way from the root. */
function throughArray(doc: Json, path: string): boolean {
  let node: unknown = doc;
  for (const segment of path.split('/').slice(1)) {
    if (Array.isArray(node)) return true;
    node = typeof node === 'object' && node !== null ? (node as Json)[segment.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  }
  return false;
}

function valueAt(doc: Json, path: string): unknown {
  let node: unknown = doc;
  for (const segment of path.split('/').slice(1)) node = isJson(node) ? node[segment] : undefined;
  return node;
}
