// Strict I-JSON reading (RFC 8259 + RFC 7493), PROFILE.md §1: UTF-8 only, no
// duplicate member names, no lone surrogates, bounded depth. JSON.parse accepts
// duplicates silently (last one wins), so a validating scan runs first and
// JSON.parse builds the value.

export const MAX_DEPTH = 32;

export class JsonSyntaxError extends Error {
  readonly code = 'MALFORMED_REQUEST';
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Parses I-JSON from bytes or text; throws JsonSyntaxError with the offset of the first problem. */
export function parseIJson(input: Uint8Array | string, maxDepth = MAX_DEPTH): unknown {
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    try {
      text = decoder.decode(input);
    } catch {
      throw new JsonSyntaxError('invalid UTF-8', 0);
    }
  }
  if (text.charCodeAt(0) === 0xfeff) throw new JsonSyntaxError('byte order mark not allowed', 0);
  new Scanner(text, maxDepth).document();
  return JSON.parse(text);
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING_BODY = /[^"\\\u0000-\u001f]*/y;

class Scanner {
  private pos = 0;
  constructor(private readonly s: string, private readonly maxDepth: number) {}

  document(): void {
    this.ws();
    this.value(1);
    this.ws();
    if (this.pos !== this.s.length) this.fail('unexpected data after the JSON value');
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(message, this.pos);
  }

  private ws(): void {
    while (this.pos < this.s.length && WS.has(this.s.charCodeAt(this.pos))) this.pos++;
  }

  private value(depth: number): void {
    const c = this.s[this.pos];
    switch (c) {
      case '{': return this.object(depth);
      case '[': return this.array(depth);
      case '"': this.string(); return;
      case 't': return this.literal('true');
      case 'f': return this.literal('false');
      case 'n': return this.literal('null');
      default: return this.number();
    }
  }

  private literal(word: string): void {
    if (!this.s.startsWith(word, this.pos)) this.fail('invalid literal');
    this.pos += word.length;
  }

  private number(): void {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.s);
    if (!m || m[0].length === 0) this.fail('unexpected character');
    if (!Number.isFinite(Number(m[0]))) this.fail('number out of range');
    this.pos += m[0].length;
  }

  /** Scans a string and returns its raw source (with quotes) for duplicate detection. */
  private string(): string {
    const start = this.pos;
    this.pos++; // opening quote
    for (;;) {
      STRING_BODY.lastIndex = this.pos;
      const run = STRING_BODY.exec(this.s);
      if (run) {
        this.checkSurrogates(run[0], this.pos);
        this.pos += run[0].length;
      }
      const c = this.s[this.pos];
      if (c === '"') {
        this.pos++;
        return this.s.slice(start, this.pos);
      }
      if (c === '\\') {
        this.escape();
        continue;
      }
      this.fail(c === undefined ? 'unterminated string' : 'control character in string');
    }
  }

  private escape(): void {
    const c = this.s[this.pos + 1];
    if (c !== undefined && '"\\/bfnrt'.includes(c)) {
      this.pos += 2;
      return;
    }
    if (c !== 'u') this.fail('invalid escape');
    const unit = this.hex4(this.pos + 2);
    this.pos += 6;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      if (this.s[this.pos] !== '\\' || this.s[this.pos + 1] !== 'u') this.fail('lone surrogate');
      const low = this.hex4(this.pos + 2);
      if (low < 0xdc00 || low > 0xdfff) this.fail('lone surrogate');
      this.pos += 6;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      this.fail('lone surrogate');
    }
  }

  private hex4(at: number): number {
    const h = this.s.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) this.fail('invalid \\u escape');
    return parseInt(h, 16);
  }

  // Unescaped surrogates only occur in text given as a JS string (bytes are
  // decoded strictly), but the rule is the same either way.
  private checkSurrogates(run: string, at: number): void {
    if (run.isWellFormed()) return;
    this.pos = at;
    this.fail('lone surrogate');
  }

  private object(depth: number): void {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`);
    this.pos++;
    this.ws();
    if (this.s[this.pos] === '}') {
      this.pos++;
      return;
    }
    const seen = new Set<string>();
    for (;;) {
      if (this.s[this.pos] !== '"') this.fail('expected a member name');
      const keyStart = this.pos;
      const raw = this.string();
      const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      if (seen.has(key)) {
        this.pos = keyStart;
        this.fail(`duplicate member name ${JSON.stringify(key)}`);
      }
      seen.add(key);
      this.ws();
      if (this.s[this.pos] !== ':') this.fail('expected ":"');
      this.pos++;
      this.ws();
      this.value(depth + 1);
      this.ws();
      const c = this.s[this.pos];
      if (c === '}') {
        this.pos++;
        return;
      }
      if (c !== ',') this.fail('expected "," or "}"');
      this.pos++;
      this.ws();
    }
  }

  private array(depth: number): void {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`);
    this.pos++;
    this.ws();
    if (this.s[this.pos] === ']') {
      this.pos++;
      return;
    }
    for (;;) {
      this.value(depth + 1);
      this.ws();
      const c = this.s[this.pos];
      if (c === ']') {
        this.pos++;
        return;
      }
      if (c !== ',') this.fail('expected "," or "]"');
      this.pos++;
      this.ws();
    }
  }
}
