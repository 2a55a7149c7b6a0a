// A paying application with ONE fault in a field class nobody pointed the
// fuzzer at: the reference paying application behind a PayingAppRole whose
// reading of a document is written again with one careless step. None is a
// reference mutant (reference/mutants.ts), none is in faulty-app.ts, and the
// fixed shapes of validCpr and brokenCpr place no document in any of them.
import { readFileSync } from 'node:fs';
import type { AppResult, CprInput, PayingAppRole } from '../../../../harness/adapters/types.ts';
import { parseDeliveryUri } from '../../../../profile/cpr/index.ts';

export type ClassFault =
  /** Fraction digits beyond milliseconds refused only up to microseconds (4 to 6): a timestamp with 7 to 9 is read (Date.parse takes it). */
  | 'nanosecond-fraction-accepted'
  /** Member names checked for duplicates among the document's own members only: one written twice inside payee, value or extensions is read, the last copy kept. */
  | 'nested-duplicate-accepted'
  /** Payer data looked for three objects deep below extensions: anything deeper is read. */
  | 'payer-depth-limited';

export const CLASS_FAULTS: readonly ClassFault[] = ['nanosecond-fraction-accepted', 'nested-duplicate-accepted', 'payer-depth-limited'];

interface Violation {
  readonly requirement?: string;
  readonly path?: string;
}

/** The text a JSON input carries (direct JSON, a file, an inline URI); undefined for a value or a token URI. */
function textOf(input: CprInput): string | undefined {
  if (input.kind === 'json') return input.text;
  if (input.kind === 'file') return readFileSync(input.path, 'utf8');
  if (input.kind !== 'uri') return undefined;
  const parsed = parseDeliveryUri(input.uri);
  return parsed.kind === 'inline' ? parsed.json : undefined;
}

function documentOf(input: CprInput): unknown {
  if (input.kind === 'object') return input.value;
  const text = textOf(input);
  if (text === undefined || text.charCodeAt(0) === 0xfeff) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The member names of the text's outermost object, as written (escapes resolved), in order. */
function topLevelNames(text: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (depth === 1 && expectName) names.push(JSON.parse(text.slice(i, j + 1)) as string);
      expectName = false;
      i = j;
    } else if (c === '{' || c === '[') {
      depth++;
      expectName = c === '{' && depth === 1;
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 1) expectName = true;
  }
  return names;
}

const FRACTION_7_TO_9 = /\.\d{7,9}Z$/;

/** Objects below extensions that hold the member at `path` (/extensions/a/b/payer: two, a and b). */
const depthBelowExtensions = (path: string): number => path.split('/').length - 3;

/** Whether the fault lets this violation through. */
function forgiven(fault: ClassFault, v: Violation, doc: Record<string, unknown>): boolean {
  if (fault === 'nanosecond-fraction-accepted') return (v.path === '/created_at' || v.path === '/expires_at') && FRACTION_7_TO_9.test(String(doc[v.path.slice(1)]));
  if (fault === 'payer-depth-limited') return (v.requirement === 'CPR-PAYER-1' || v.requirement === 'PRF-PAYER-1') && typeof v.path === 'string' && v.path.startsWith('/extensions/') && depthBelowExtensions(v.path) > 3;
  return false;
}

/** `inner` (the reference paying application) with `fault` switched on. */
export function classFaultApp(inner: PayingAppRole, fault: ClassFault): PayingAppRole {
  async function read(input: CprInput): Promise<AppResult> {
    const result = await inner.read(input);
    if (result.ok || result.code !== 'CPR_INVALID') return result;
    const violations = (result.violations ?? []) as Violation[];
    if (fault === 'nested-duplicate-accepted') {
      const text = textOf(input);
      if (text === undefined || !violations.every((v) => v.requirement === 'PRF-JSON-1') || text.charCodeAt(0) === 0xfeff) return result;
      const names = topLevelNames(text);
      if (new Set(names).size !== names.length) return result;
      const doc = documentOf(input);
      return doc === undefined ? result : inner.read({ kind: 'object', value: doc });
    }
    const doc = documentOf(input);
    if (typeof doc !== 'object' || doc === null || violations.length === 0 || !violations.every((v) => forgiven(fault, v, doc as Record<string, unknown>))) return result;
    return { ok: true, cpr: doc, notices: [] };
  }
  return {
    ...inner,
    description: `${inner.description} with the fault ${fault}`,
    // Only reading is written again: a derivation reads the CPR as the reference does.
    read,
    close: () => inner.close(),
  };
}
