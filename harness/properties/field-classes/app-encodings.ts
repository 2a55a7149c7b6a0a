// PROP-APP-014: the paying application reads JSON by one rule on every path it
// reads JSON from (direct text, a file, an inline URI; PROFILE.md §1 I-JSON,
// §8): member names written with \u escapes are the same members; a member
// twice, at any depth, spelled plainly or with escapes, is refused; so is a
// byte order mark. What an in-memory document can hold as well is judged on
// the object path too: a string or a member name with an unpaired surrogate is
// refused, and so is nesting one level past the bound of 32, which is taken;
// where bytes travel (a file, an inline URI), a string holding bytes that are
// not UTF-8 (each kind: a byte UTF-8 never uses, an overlong form, a surrogate
// as CESU-8, a continuation alone, a sequence cut short, past U+10FFFF) is
// refused, never read with a replacement character. A CPR given as direct
// JSON past the 65 536 bytes that bound a retrieved body and a file, by one
// byte and four times over, is read (no bound is the direct text's, §8.3).
import fc from 'fast-check';
import { validCpr } from '../../../generators/index.ts';
import { notUtf8, withBytesAt } from '../../../generators/parts/utf8.ts';
import { jsonTextVariant, type ClassValue } from '../../../generators/classes/index.ts';
import { crashed, define, firstFailure, FUTURE } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { readThrough, type DeliveryPath } from './delivery-paths.ts';
import { MAX_JSON_BYTES } from '../../fuzz/paying-app/execute.ts';

const FILE = 'harness/properties/field-classes/app-encodings.ts';

const CLASSES = ['json.escaped-name', 'json.duplicate', 'json.bom'] as const;
const TEXT_PATHS: readonly DeliveryPath[] = ['json', 'file', 'inline'];

interface Reading {
  readonly class: (typeof CLASSES)[number];
  readonly text: ClassValue<string>;
  readonly path: DeliveryPath;
}

const COVERS: Coverage[] = CLASSES.map((cls) => ({ field: 'cpr', class: cls }));

/** A document that breaks I-JSON (or keeps to it) in what an object holds as well as a text: judged on every path, the object included; bytes on the paths that carry bytes. */
interface Edge {
  readonly text: string | Uint8Array;
  readonly note: string;
  readonly accept: boolean;
  readonly path: DeliveryPath;
  /**
   * Only for an application in this process (the module adapter): a string
   * that holds a lone surrogate raw reaches a child process through the
   * adapter protocol's JSON, which a child in a language of UTF-8 strings
   * cannot decode as sent (it reads U+FFFD): what it then read is no longer
   * what the harness gave.
   */
  readonly inProcessOnly?: true;
}

const ALL_PATHS: readonly DeliveryPath[] = ['object', ...TEXT_PATHS];
/** The paths that carry bytes, not a string. */
const BYTE_PATHS: readonly DeliveryPath[] = ['file', 'inline'];
/** Written where the bytes that are not UTF-8 go: ASCII, so that JSON writes it as it is, inside a string. */
const MARKER = '@not-utf-8@';

/** `inserted` somewhere in a string or a member name the CPR carries: the memo, payee.display_name, an extension's value or member name. */
function withInserted(cpr: Record<string, unknown>, where: number, inserted: string, at: number): { doc: Record<string, unknown>; place: string } {
  const into = (text: string) => text.slice(0, at % (text.length + 1)) + inserted + text.slice(at % (text.length + 1));
  const extensions = (cpr.extensions ?? {}) as Record<string, unknown>;
  switch (where % 4) {
    case 0:
      return { doc: { ...cpr, memo: into(typeof cpr.memo === 'string' ? cpr.memo : 'memo') }, place: 'memo' };
    case 1:
      return { doc: { ...cpr, payee: { ...(cpr.payee as object), display_name: into(String((cpr.payee as { display_name?: unknown }).display_name ?? 'Payee')) } }, place: 'payee.display_name' };
    case 2:
      return { doc: { ...cpr, extensions: { ...extensions, 'com.example.note': into('note') } }, place: "an extension's value" };
    default:
      return { doc: { ...cpr, extensions: { ...extensions, [into('com.example.n')]: 1 } }, place: "an extension's member name" };
  }
}

/** An extension nested so that the document is `depth` deep (the root object is 1, extensions 2). */
function nestedTo(cpr: Record<string, unknown>, depth: number, arrays: boolean): Record<string, unknown> {
  let value: unknown = 0;
  for (let level = 0; level < depth - 2; level++) value = arrays ? [value] : { a: value };
  return { ...cpr, extensions: { ...((cpr.extensions ?? {}) as object), 'com.example.deep': value } };
}

/** The CPR with an extension of ASCII letters that makes its JSON text exactly `bytes` long. */
function largerThanBound(cpr: Record<string, unknown>, bytes: number): Record<string, unknown> {
  const withValue = (value: string) => ({ ...cpr, extensions: { ...((cpr.extensions ?? {}) as object), 'com.example.attachment': value } });
  return withValue('x'.repeat(bytes - Buffer.byteLength(JSON.stringify(withValue('')))));
}

const edges: fc.Arbitrary<Edge[]> = fc
  .record({
    cpr: validCpr({ now: FUTURE, maxExtensionKeys: 2 }),
    where: fc.nat(),
    unit: fc.oneof(fc.integer({ min: 0xd800, max: 0xdbff }), fc.integer({ min: 0xdc00, max: 0xdfff })),
    at: fc.nat(),
    badWhere: fc.nat(),
    bad: notUtf8,
    over: fc.boolean(),
    arrays: fc.boolean(),
  })
  .map(({ cpr, where, unit, at, badWhere, bad, over, arrays }) => {
    const doc = cpr as unknown as Record<string, unknown>;
    // An unpaired surrogate (either half); JSON.stringify writes it escaped.
    const lone = withInserted(doc, where, String.fromCharCode(unit), at);
    const notUtf8At = withInserted(doc, badWhere, MARKER, at);
    const depth = over ? 33 : 32;
    return [
      ...ALL_PATHS.flatMap((path) => [
        // The object itself holds the surrogate raw: only an application in this process receives it as given.
        { text: JSON.stringify(lone.doc), note: `${lone.place} holding a lone ${unit < 0xdc00 ? 'high' : 'low'} surrogate`, accept: false, path, ...(path === 'object' ? { inProcessOnly: true as const } : {}) },
        { text: JSON.stringify(nestedTo(doc, depth, arrays)), note: `nested ${depth} deep (${arrays ? 'arrays' : 'objects'} in an extension)`, accept: !over, path },
      ]),
      // The same surrogate written raw in the direct text (a JavaScript string holds it; no UTF-8 can): refused as the escaped one is.
      { text: JSON.stringify(lone.doc).replace(`\\u${unit.toString(16)}`, String.fromCharCode(unit)), note: `${lone.place} holding a lone ${unit < 0xdc00 ? 'high' : 'low'} surrogate written raw in the direct text, not escaped`, accept: false, path: 'json' as const, inProcessOnly: true as const },
      ...BYTE_PATHS.map((path) => ({ text: withBytesAt(JSON.stringify(notUtf8At.doc), MARKER, bad.bytes), note: `${notUtf8At.place} holding the bytes ${bad.note}, which are not UTF-8`, accept: false, path })),
      // A CPR given as direct JSON past the 65 536 bytes that bound a retrieved body and a file (PROFILE.md §8.3), by
      // one byte and four times over: no bound is the direct text's.
      ...[MAX_JSON_BYTES + 1, 4 * MAX_JSON_BYTES].map((bytes) => {
        const text = JSON.stringify(largerThanBound(doc, bytes));
        return { text, note: `direct JSON of ${Buffer.byteLength(text)} bytes, past the ${MAX_JSON_BYTES} that bound a retrieved body or a file`, accept: true, path: 'json' as const };
      }),
    ];
  });

const readings: fc.Arbitrary<Reading[]> = validCpr({ now: FUTURE, maxExtensionKeys: 2 }).chain((cpr) =>
  fc.tuple(...CLASSES.map((cls) => jsonTextVariant({ class: cls, value: cpr as unknown as Record<string, unknown> }))).map((texts) =>
    CLASSES.flatMap((cls, i) => TEXT_PATHS.map((path) => ({ class: cls, text: texts[i]! as ClassValue<string>, path }))),
  ),
);

/** Each case: the three classes on the text paths, and the edges on every path. */
const cases: fc.Arbitrary<(Reading | Edge)[]> = fc.tuple(readings, edges).map(([r, e]) => [...r, ...e]);

export const APP_ENCODINGS = define<readonly (Reading | Edge)[]>({
  id: 'PROP-APP-014',
  title: 'escaped member names, duplicate members at any depth, a byte order mark, lone surrogates and nesting at the depth bound are judged alike on every path a paying application reads JSON from, the in-memory object included; bytes that are not UTF-8 in a file or an inline URI are refused',
  requirements: ['PRF-JSON-1', 'DRV-VALID-1', 'DLV-FILE-1', 'DLV-INLINE-1'],
  level: 'PROFILE',
  role: 'paying-app',
  sections: ['PROFILE §1', 'PROFILE §8', '§4.4'],
  needs: [],
  defaultRuns: 20,
  caseWeight: 5,
  file: FILE,
  covers: COVERS,
  arbitrary: () => cases,
  async check(ctx, all) {
    return firstFailure(ctx, all, 9, async (r): Promise<PropertyFailure | undefined> => {
      if ('inProcessOnly' in r && ctx.app().kind !== 'module') {
        ctx.leftOut.add('a lone surrogate written raw in direct JSON text or held by the object given, as only an application in this process receives such a string as it was given');
        return undefined;
      }
      const [text, note, accept] = 'class' in r ? [r.text.value, r.text.note, r.class === 'json.escaped-name'] : [r.text, r.note, r.accept];
      const { answer, path } = await readThrough(ctx, r.path, text);
      if (!crashed(answer) && answer.ok === accept) return undefined;
      return {
        expected: accept ? 'accepted' : 'refused: not I-JSON',
        actual: crashed(answer) ? { crashed: answer.message } : answer.ok ? 'accepted' : { code: answer.code, message: answer.message },
        message: `${note}, read as ${path}`,
        requirements: accept ? ['DRV-VALID-1'] : ['PRF-JSON-1', ...(path === 'file' ? ['DLV-FILE-1'] : path === 'inline' ? ['DLV-INLINE-1'] : [])],
      };
    });
  },
});
