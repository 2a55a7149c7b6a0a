// Templates in scenario files: `${expr}` inside strings, evaluated against the
// scenario's captured values. A string that is exactly one `${expr}` keeps the
// value's type (an object stays an object). The expression language is small on
// purpose: paths, literals, + - *, and a table of functions.
//
//   ${req.token}                       a captured value
//   ${packs[0].pack_id}                an index
//   ${policy.max_amount + 1}           decimal strings add exactly (BigInt)
//   ${now + policy.expiry_min_seconds - 1}   ${iso((now + 600) * 1000)}
//   ${ts(now + 60)}  ${uuid()}  ${repeat('😀', 140)}
import { randomUUID } from 'node:crypto';
import { decodeB64urlFixed, digestText, encodeB64url, genesisDigest, readDigest, renewalDigest } from '../../profile/index.ts';
import { formatTimestamp, parseTimestamp } from '../../profile/time.ts';
import { isAmount } from '../../profile/amount.ts';
import { isUuid } from '../../profile/uuid.ts';
import type { AssetDescriptor } from '../../profile/cashpack/types.ts';
import { recodedAssets, unlistedAsset } from '../../generators/cashpack/assets.ts';

/** Internal signal, caught in scenarios/execute.ts: a value the target's answers lacked, judged there (a failed check, or setup failed). */
export class TemplateError extends Error {
  constructor(message: string, readonly expression: string) {
    super(`${message} in \${${expression}}`);
    this.name = 'TemplateError';
  }
}

export type Scope = Readonly<Record<string, unknown>>;

const DIGITS = /^(0|[1-9][0-9]*)$/;

/**
 * A value a template function cannot take: the function's own, declared way of
 * saying so. Its arguments come from the target's answers, so this becomes a
 * TemplateError (a value the answer lacked). Any other exception a function
 * throws is a defect of the harness and propagates as one (HARNESS_INTERNAL).
 * Internal signal, caught in scenarios/template.ts.
 */
class ArgumentError extends Error {}

function need(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ArgumentError(message);
}

/** Epoch milliseconds a Date can hold (ECMA-262 §21.4.1.22). */
const MAX_TIME_MS = 8.64e15;

function instant(value: unknown, unit: number, name: string): number {
  const ms = Number(value) * unit;
  need(Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME_MS, `${name}() takes a time a timestamp can be written for`);
  return ms;
}

/** The most characters repeat() writes: far beyond any length limit a scenario probes. */
const MAX_REPEAT_LENGTH = 1_000_000;

export const FUNCTIONS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  uuid: () => randomUUID(),
  /** A cash-pack timestamp (whole seconds) from epoch seconds. */
  ts: (seconds) => formatTimestamp(instant(seconds, 1000, 'ts'), 'cashpack'),
  /** A CPR timestamp from epoch milliseconds. */
  iso: (ms) => formatTimestamp(instant(ms, 1, 'iso'), 'cpr'),
  /** Epoch milliseconds of a timestamp (CPR or cash-pack form): the inverse of iso(). */
  ms: (text) => {
    const at = parseTimestamp(text, 'cpr');
    need(at !== undefined, 'ms() takes a timestamp in the form of PROFILE.md §1');
    return at;
  },
  repeat: (text, count) => {
    const [unit, times] = [String(text), Number(count)];
    need(Number.isSafeInteger(times) && times >= 0 && unit.length * times <= MAX_REPEAT_LENGTH, `repeat() takes a whole count of at least 0, at most ${MAX_REPEAT_LENGTH} characters in all`);
    return unit.repeat(times);
  },
  /** Length in code points (strings) or elements (arrays). */
  len: (value) => {
    if (typeof value === 'string') return [...value].length;
    if (Array.isArray(value)) return value.length;
    need(value !== null && typeof value === 'object', 'len() takes a string, an array or an object');
    return Object.keys(value).length;
  },
  b64url: (text) => encodeB64url(new TextEncoder().encode(String(text))),
  json: (value) => JSON.stringify(value),
  str: (value) => String(value),
  num: (value) => Number(value),
  lower: (value) => String(value).toLowerCase(),
  upper: (value) => String(value).toUpperCase(),
  concat: (...parts) => parts.map(String).join(''),
  /** Every occurrence of `from` replaced by `to`. */
  replace: (text, from, to) => String(text).replaceAll(String(from), String(to)),
  /** A fiat asset none of `assets` is (the first of XTS, XXX, XBA, ... the policy does not list). */
  unlisted_asset: (assets) => {
    need(Array.isArray(assets), "unlisted_asset() takes the policy's assets");
    const asset = unlistedAsset(assets as AssetDescriptor[]);
    need(asset !== undefined, 'the policy lists every test currency');
    return asset;
  },
  /** Every asset that shares the code of a listed one but is another asset (generators/cashpack/assets.ts recodedAssets). */
  recoded_assets: (assets) => {
    need(Array.isArray(assets) && assets.length > 0, "recoded_assets() takes the policy's assets");
    return recodedAssets(assets as AssetDescriptor[]);
  },
  /** `list` with `value` at its end (a list collected over the iterations of a repeat). */
  push: (list, value) => {
    need(Array.isArray(list), 'push() takes a list');
    return [...list, value];
  },
  /**
   * The bit positions, of the first 128 bits of each hex string of `values`, that
   * hold the same value in all of them: none, for 32 strings of 128 random bits,
   * but with chance 128 / 2^31; a UUIDv4 written as hex fixes six.
   */
  fixed_bits: (values) => {
    need(Array.isArray(values) && values.length >= 2 && values.every((v) => typeof v === 'string' && /^[0-9a-f]{32}/.test(v)), 'fixed_bits() takes two or more strings of at least 32 lower-case hex digits');
    const bits = (values as string[]).map((v) => BigInt(`0x${v.slice(0, 32)}`));
    const fixed: number[] = [];
    for (let i = 0; i < 128; i++) {
      const bit = (b: bigint) => (b >> BigInt(127 - i)) & 1n;
      if (bits.every((b) => bit(b) === bit(bits[0]!))) fixed.push(i);
    }
    return fixed;
  },
  /**
   * The first of a parallel step's responses whose status is 2xx (the winner of a
   * race), whatever its place. Given the step's whole result, it also carries what
   * that copy sent (`sent`).
   */
  first_ok: (result) => {
    const parallel = Array.isArray(result) ? { responses: result as unknown[], sent: undefined } : (result as { responses?: unknown; sent?: unknown } | null);
    const responses = parallel?.responses;
    need(Array.isArray(responses), 'first_ok() takes a parallel step, or its responses');
    const at = responses.findIndex((r) => typeof (r as { status?: unknown })?.status === 'number' && Math.floor((r as { status: number }).status / 100) === 2);
    need(at >= 0, 'no response of the parallel step succeeded');
    const sent = Array.isArray(parallel?.sent) ? parallel.sent[at] : undefined;
    return sent === undefined ? responses[at] : { ...(responses[at] as object), sent };
  },
  /**
   * Each response of a parallel step as its status and, for a refusal, its
   * problem code: "200", "409 INSTRUMENT_NOT_ACTIVE" ("none" when no answer came).
   */
  answers: (result) => {
    const responses = (result as { responses?: unknown } | null)?.responses;
    need(Array.isArray(responses), 'answers() takes a parallel step');
    return responses.map((r) => {
      const { status, body } = (r ?? {}) as { status?: unknown; body?: { code?: unknown } };
      if (typeof status !== 'number') return 'none';
      return status === 200 ? '200' : `${status} ${typeof body?.code === 'string' ? body.code : ''}`.trim();
    });
  },
  /** True when the value is an amount as PROFILE.md §1 writes it (a limit plus one may not be). */
  is_amount: (value) => isAmount(value),
  min: (...values) => pickNumber(values, Math.min),
  /** Whole-number division, rounded down. */
  div: (a, b) => {
    const [x, y] = [Number(a), Number(b)];
    need(Number.isSafeInteger(x) && Number.isSafeInteger(y) && y !== 0, 'div() takes two whole numbers, the second not 0');
    return Math.floor(x / y);
  },
  max: (...values) => pickNumber(values, Math.max),
  /**
   * An amount split into `parts` equal shares, rounded down but at least 1, exactly:
   * `share(policy.max_amount, 10)` is an amount every policy allows, whatever its max_amount.
   */
  share: (amount, parts) => {
    const [whole, n] = [wholeNumber(amount), wholeNumber(parts)];
    need(whole !== undefined && whole >= 1n && n !== undefined && n >= 1n, 'share() takes an amount (a whole number of at least 1) and a number of parts (at least 1)');
    const share = whole / n;
    return (share > 1n ? share : 1n).toString();
  },
  /** PROFILE.md §3: D0 of a pack from its pack_id and initial bearer key (a JWK, or its `x`). */
  genesis_digest: (packId, bearer) => {
    need(isUuid(packId), 'genesis_digest() takes a pack_id that is a canonical UUID');
    return digestText(genesisDigest(packId, keyBytes(bearer)));
  },
  /** PROFILE.md §3: the chain digest after a Renewal Entry (renewal_id, new_bearer_pk, signature), from the one before it. */
  renewal_digest: (previous, entry) => {
    const e = (entry ?? {}) as { renewal_id?: unknown; new_bearer_pk?: unknown; signature?: unknown };
    const prev = readDigest(previous);
    const signature = decodeB64urlFixed(e.signature, 64);
    need(prev !== undefined && signature !== undefined && isUuid(e.renewal_id), 'renewal_digest takes a chain digest and a Renewal Entry');
    return digestText(renewalDigest(prev, e.renewal_id, keyBytes(e.new_bearer_pk), signature));
  },
  /**
   * Base64url text with every letter before its last character in the other case:
   * another value of the same length, still canonical (PROFILE.md §1: base64url is
   * case-sensitive; the last character, whose unused bits must be zero, is kept).
   */
  b64url_other_case: (text) => {
    need(typeof text === 'string' && /[A-Za-z]/.test(text.slice(0, -1)), 'b64url_other_case() takes base64url text with a letter before its last character');
    return [...text].map((ch, i) => (i === text.length - 1 ? ch : ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
  },
  /**
   * An object's JSON text with `member` written twice, the same value both times (first, and
   * again in its place): a member twice that only a parser keeping the last one would take as valid.
   */
  twice: (value, member) => {
    need(typeof value === 'object' && value !== null && !Array.isArray(value) && typeof member === 'string' && Object.hasOwn(value, member), 'twice() takes an object and the name of one of its members');
    return `{${JSON.stringify(member)}:${JSON.stringify((value as Record<string, unknown>)[member])},${JSON.stringify(value).slice(1)}`;
  },
  /** The first of `texts` of at most `limit` UTF-8 bytes (the last one when none is): a body sized from the target's own max_body_bytes. */
  fit: (limit, ...texts) => {
    const bytes = Number(limit);
    need(Number.isSafeInteger(bytes) && texts.length > 0 && texts.every((t) => typeof t === 'string'), 'fit() takes a number of bytes and one or more strings');
    return (texts as string[]).find((t) => Buffer.byteLength(t) <= bytes) ?? texts[texts.length - 1];
  },
  /** Code points `start` to `end` (exclusive; negative counts from the end). */
  slice: (text, start, end) => [...String(text)].slice(Number(start), end === undefined ? undefined : Number(end)).join(''),
};


/** The 32 bytes of an Ed25519 public key given as a JWK or its `x`. */
function keyBytes(key: unknown): Uint8Array {
  const x = typeof key === 'object' && key !== null ? (key as { x?: unknown }).x : key;
  const bytes = decodeB64urlFixed(x, 32);
  need(bytes !== undefined, 'a bearer key is a JWK or the base64url of 32 bytes');
  return bytes;
}

/** A whole number of at least 0, from a decimal string (an amount) or a safe integer. */
function wholeNumber(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && DIGITS.test(value)) return BigInt(value);
  return undefined;
}

function pickNumber(values: readonly unknown[], pick: (...n: number[]) => number): number {
  need(values.length > 0 && values.every((v) => typeof v === 'number' && Number.isFinite(v)), 'min() and max() take numbers');
  return pick(...(values as number[]));
}

/** Resolves every template inside a JSON-like value. */
export function render(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return renderString(value, scope);
  if (Array.isArray(value)) return value.map((v) => render(v, scope));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, scope)]));
  }
  return value;
}

/** Splits a string into literal text and `${...}` expressions; quotes inside an expression may hold braces. */
function parts(text: string): ({ text: string } | { expr: string })[] {
  const out: ({ text: string } | { expr: string })[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf('${', i);
    if (start < 0) break;
    if (start > i) out.push({ text: text.slice(i, start) });
    let j = start + 2;
    let quote: string | undefined;
    for (; j < text.length; j++) {
      const c = text[j]!;
      if (quote) {
        if (c === quote) quote = undefined;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === '}') break;
    }
    if (j >= text.length) throw new TemplateError('unterminated "${"', text.slice(start + 2));
    out.push({ expr: text.slice(start + 2, j) });
    i = j + 1;
  }
  if (i < text.length) out.push({ text: text.slice(i) });
  return out;
}

function renderString(text: string, scope: Scope): unknown {
  if (!text.includes('${')) return text;
  const segments = parts(text);
  if (segments.length === 1 && 'expr' in segments[0]!) return evaluate(segments[0].expr, scope);
  return segments
    .map((p) => {
      if ('text' in p) return p.text;
      const v = evaluate(p.expr, scope);
      return typeof v === 'string' ? v : JSON.stringify(v);
    })
    .join('');
}

/** The names a template refers to at its root (for load-time checks); an unknown function is refused here. */
export function referencedNames(text: string): string[] {
  const names: string[] = [];
  for (const part of text.includes('${') ? parts(text) : []) {
    if (!('expr' in part)) continue;
    const tokens = tokenize(part.expr, part.expr);
    tokens.forEach((t, i) => {
      const afterDot = tokens[i - 1]?.kind === 'op' && tokens[i - 1]!.value === '.';
      const isCall = tokens[i + 1]?.kind === 'op' && tokens[i + 1]!.value === '(';
      if (t.kind === 'ident' && !afterDot && !isCall) names.push(t.value);
      if (t.kind === 'ident' && !afterDot && isCall && !Object.hasOwn(FUNCTIONS, t.value)) throw new TemplateError(`unknown function ${t.value}()`, part.expr);
    });
  }
  return names;
}

type Token = { kind: 'num'; value: number } | { kind: 'str'; value: string } | { kind: 'ident'; value: string } | { kind: 'op'; value: string };

function tokenize(src: string, expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+/.exec(src.slice(i))!;
      tokens.push({ kind: 'num', value: Number(m[0]) });
      i += m[0].length;
    } else if (c === "'" || c === '"') {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new TemplateError('unterminated string', expr);
      tokens.push({ kind: 'str', value: src.slice(i + 1, end) });
      i = end + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      tokens.push({ kind: 'ident', value: m[0] });
      i += m[0].length;
    } else if ('.[](),+-*'.includes(c)) {
      tokens.push({ kind: 'op', value: c });
      i++;
    } else {
      throw new TemplateError(`unexpected character ${JSON.stringify(c)}`, expr);
    }
  }
  return tokens;
}

export function evaluate(expr: string, scope: Scope): unknown {
  const tokens = tokenize(expr, expr);
  let pos = 0;
  const peek = () => tokens[pos];
  const take = (op?: string) => {
    const t = tokens[pos++];
    if (!t || (op !== undefined && !(t.kind === 'op' && t.value === op))) throw new TemplateError(op ? `expected "${op}"` : 'unexpected end', expr);
    return t;
  };
  const sum = (): unknown => {
    let left = product();
    for (let t = peek(); t?.kind === 'op' && (t.value === '+' || t.value === '-'); t = peek()) {
      pos++;
      left = arithmetic(t.value, left, product(), expr);
    }
    return left;
  };
  const product = (): unknown => {
    let left = unary();
    for (let t = peek(); t?.kind === 'op' && t.value === '*'; t = peek()) {
      pos++;
      left = arithmetic('*', left, unary(), expr);
    }
    return left;
  };
  const unary = (): unknown => {
    const t = peek();
    if (t?.kind === 'op' && t.value === '-') {
      pos++;
      return arithmetic('-', 0, postfix(), expr);
    }
    return postfix();
  };
  const postfix = (): unknown => {
    const first = take();
    let value: unknown;
    if (first.kind === 'num' || first.kind === 'str') value = first.value;
    else if (first.kind === 'op' && first.value === '(') {
      value = sum();
      take(')');
    } else if (first.kind === 'ident') {
      const next = peek();
      if (next?.kind === 'op' && next.value === '(') {
        const fn = FUNCTIONS[first.value];
        if (!fn) throw new TemplateError(`unknown function ${first.value}()`, expr);
        pos++;
        const args: unknown[] = [];
        if (!(peek()?.kind === 'op' && peek()!.value === ')')) {
          args.push(sum());
          while (peek()?.kind === 'op' && peek()!.value === ',') {
            pos++;
            args.push(sum());
          }
        }
        take(')');
        try {
          value = fn(...args);
        } catch (error) {
          // The arguments come from captured answers: a value a function declares it cannot take is a value problem.
          // Anything else a function throws is the harness's own defect, and propagates as one.
          if (!(error instanceof ArgumentError)) throw error;
          throw new TemplateError(`${first.value}() cannot take ${args.map((a) => JSON.stringify(a) ?? 'undefined').join(', ')}: ${error.message}`, expr);
        }
      } else {
        if (!Object.hasOwn(scope, first.value)) throw new TemplateError(`"${first.value}" is not defined (capture it with "as:" first)`, expr);
        value = scope[first.value];
      }
    } else {
      throw new TemplateError(`unexpected "${first.value}"`, expr);
    }
    for (;;) {
      const t = peek();
      if (t?.kind === 'op' && t.value === '.') {
        pos++;
        const name = take();
        if (name.kind !== 'ident') throw new TemplateError('expected a member name after "."', expr);
        value = member(value, name.value, expr);
      } else if (t?.kind === 'op' && t.value === '[') {
        pos++;
        const key = sum();
        take(']');
        value = member(value, key, expr);
      } else {
        return value;
      }
    }
  };
  const result = sum();
  if (pos !== tokens.length) throw new TemplateError('unexpected trailing input', expr);
  return result;
}

function member(value: unknown, key: unknown, expr: string): unknown {
  if (value === null || typeof value !== 'object') throw new TemplateError(`cannot read ${JSON.stringify(key)} of ${value === null ? 'null' : typeof value}`, expr);
  const k = String(key);
  return Object.hasOwn(value, k) ? (value as Record<string, unknown>)[k] : undefined;
}

/** Numbers compute as numbers; decimal strings (amounts) compute exactly as BigInts and stay strings. */
function arithmetic(op: string, a: unknown, b: unknown, expr: string): unknown {
  if (typeof a === 'number' && typeof b === 'number') return op === '+' ? a + b : op === '-' ? a - b : a * b;
  const big = (v: unknown) => {
    if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
    if (typeof v === 'string' && DIGITS.test(v)) return BigInt(v);
    throw new TemplateError(`cannot do arithmetic on ${JSON.stringify(v)}`, expr);
  };
  const r = op === '+' ? big(a) + big(b) : op === '-' ? big(a) - big(b) : big(a) * big(b);
  return r.toString();
}
