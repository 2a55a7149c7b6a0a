// RFC 8785 JSON Canonicalization Scheme. The `canonicalize` package is the RFC
// authors' reference implementation for JavaScript; tests cross-check it against
// the RFC's own vectors and a second implementation.
//
// Every signature made or checked canonicalizes its object, so plain JSON data
// (strings, finite numbers, booleans, null, arrays and objects of them) takes a
// direct path that writes what the package writes for it, without the package's
// per-call Set and intermediate arrays: a string JSON need not escape is quoted
// as it is, an object's few keys are sorted by insertion. Anything else (a lone
// surrogate, a non-finite number, toJSON, a class instance, a hole, a deep or
// circular structure) leaves that path and is written, or refused, by the
// package itself.
import canonicalize from 'canonicalize';

const encoder = new TextEncoder();

export function canonicalJson(value: unknown): string {
  const text = plainJson(value, 0) ?? canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

export function canonicalBytes(value: unknown): Uint8Array {
  return encoder.encode(canonicalJson(value));
}

/** Nesting past which the package takes over (and finds a cycle, if that is what it is). */
const PLAIN_DEPTH = 64;

/** The canonical text of plain JSON data, or undefined for anything the package must judge. */
function plainJson(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return plainString(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (depth >= PLAIN_DEPTH) return undefined;
      return Array.isArray(value) ? plainArray(value, depth) : plainObject(value as Record<string, unknown>, depth);
    default:
      return undefined;
  }
}

/** Characters JSON escapes, and surrogates (a lone one is the package's to refuse). */
const SPECIAL = /["\\\u0000-\u001f\ud800-\udfff]/;

function plainString(text: string): string | undefined {
  if (!SPECIAL.test(text)) return `"${text}"`;
  return text.isWellFormed() ? JSON.stringify(text) : undefined;
}

function plainArray(array: readonly unknown[], depth: number): string | undefined {
  if (Object.getPrototypeOf(array) !== Array.prototype) return undefined;
  let text = '[';
  for (let i = 0; i < array.length; i++) {
    const item = array[i];
    // The package writes null for undefined and symbols, and nothing for a hole.
    const written = item === undefined ? (i in array ? 'null' : undefined) : typeof item === 'symbol' ? 'null' : plainJson(item, depth + 1);
    if (written === undefined) return undefined;
    text += i === 0 ? written : `,${written}`;
  }
  return `${text}]`;
}

function plainObject(object: Record<string, unknown>, depth: number): string | undefined {
  const prototype = Object.getPrototypeOf(object);
  if ((prototype !== Object.prototype && prototype !== null) || typeof object.toJSON === 'function') return undefined;
  // Sorted by UTF-16 code units, as the package (and RFC 8785 §3.2.3) sorts them.
  const keys = sorted(Object.keys(object));
  let text = '{';
  for (const key of keys) {
    const member = object[key];
    // The package leaves out undefined members (and symbol ones, which it is left to).
    if (member === undefined) continue;
    const name = plainString(key);
    const written = name === undefined ? undefined : plainJson(member, depth + 1);
    if (written === undefined) return undefined;
    text += text.length === 1 ? `${name}:${written}` : `,${name}:${written}`;
  }
  return `${text}}`;
}

/** Keys in place by UTF-16 code units (what `<` compares), as Array.prototype.sort orders strings: insertion, for an object's few. */
function sorted(keys: string[]): string[] {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}
