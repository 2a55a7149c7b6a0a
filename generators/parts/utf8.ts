// Byte sequences that are not UTF-8 (RFC 3629 §3, §4), one of each kind a
// lenient decoder replaces with U+FFFD or reads otherwise; placed inside a JSON
// string, each makes the text no I-JSON (PROFILE.md §1). Internal: not
// re-exported from generators/index.ts.
import fc from 'fast-check';

interface NotUtf8 {
  readonly bytes: readonly number[];
  readonly note: string;
}

const NOT_UTF8: readonly NotUtf8[] = [
  { bytes: [0xff], note: 'ff, a byte UTF-8 never uses' },
  { bytes: [0xfe], note: 'fe, a byte UTF-8 never uses' },
  { bytes: [0xc0, 0xaf], note: 'c0 af, an overlong "/"' },
  { bytes: [0xe0, 0x80, 0xaf], note: 'e0 80 af, an overlong "/" in three bytes' },
  { bytes: [0xed, 0xa0, 0x80], note: 'ed a0 80, a surrogate written as CESU-8' },
  { bytes: [0x80], note: '80, a continuation byte alone' },
  { bytes: [0xc3, 0x28], note: 'c3 28, a lead byte without its continuation' },
  { bytes: [0xe2, 0x82], note: 'e2 82, a sequence cut short' },
  { bytes: [0xf4, 0x90, 0x80, 0x80], note: 'f4 90 80 80, past U+10FFFF' },
  { bytes: [0xf8, 0x88, 0x80, 0x80, 0x80], note: 'f8 88 80 80 80, a five-byte form' },
];

export const notUtf8: fc.Arbitrary<NotUtf8> = fc.constantFrom(...NOT_UTF8);

/** The UTF-8 bytes of `text` with the first occurrence of `marker` (inside a JSON string) replaced by `bad`. */
export function withBytesAt(text: string, marker: string, bad: readonly number[]): Uint8Array {
  const at = text.indexOf(marker);
  if (at < 0) throw new RangeError(`withBytesAt: the marker ${JSON.stringify(marker)} is not in the text`);
  const encoder = new TextEncoder();
  return Uint8Array.from([...encoder.encode(text.slice(0, at)), ...bad, ...encoder.encode(text.slice(at + marker.length))]);
}
