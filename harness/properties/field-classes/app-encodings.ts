// PROP-APP-014: the paying application reads JSON by one rule on every path it
// reads JSON from (direct text, a file, an inline URI; PROFILE.md §1 I-JSON,
// §8): member names written with \u escapes are the same members; a member
// twice, at any depth, spelled plainly or with escapes, is refused; so is a
// byte order mark.
import fc from 'fast-check';
import { validCpr } from '../../../generators/index.ts';
import { jsonTextVariant, type ClassValue } from '../../../generators/classes/index.ts';
import { crashed, define, firstFailure, FUTURE } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { readThrough, type DeliveryPath } from './delivery-paths.ts';

const FILE = 'harness/properties/field-classes/app-encodings.ts';

const CLASSES = ['json.escaped-name', 'json.duplicate', 'json.bom'] as const;
const TEXT_PATHS: readonly DeliveryPath[] = ['json', 'file', 'inline'];

interface Reading {
  readonly class: (typeof CLASSES)[number];
  readonly text: ClassValue<string>;
  readonly path: DeliveryPath;
}

const COVERS: Coverage[] = CLASSES.map((cls) => ({ field: 'cpr', class: cls }));

const readings: fc.Arbitrary<Reading[]> = validCpr({ now: FUTURE, maxExtensionKeys: 2 }).chain((cpr) =>
  fc.tuple(...CLASSES.map((cls) => jsonTextVariant({ class: cls, value: cpr as unknown as Record<string, unknown> }))).map((texts) =>
    CLASSES.flatMap((cls, i) => TEXT_PATHS.map((path) => ({ class: cls, text: texts[i]! as ClassValue<string>, path }))),
  ),
);

export const APP_ENCODINGS = define<readonly Reading[]>({
  id: 'PROP-APP-014',
  title: 'escaped member names, duplicate members at any depth and a byte order mark are judged alike on every path a paying application reads JSON from',
  requirements: ['PRF-JSON-1', 'DRV-VALID-1', 'DLV-FILE-1', 'DLV-INLINE-1'],
  level: 'PROFILE',
  role: 'paying-app',
  sections: ['PROFILE §1', 'PROFILE §8', '§4.4'],
  needs: [],
  defaultRuns: 20,
  caseWeight: 3,
  file: FILE,
  covers: COVERS,
  arbitrary: () => readings,
  async check(ctx, all) {
    return firstFailure(ctx, all, 9, async (r): Promise<PropertyFailure | undefined> => {
      const { answer, path } = await readThrough(ctx, r.path, r.text.value);
      const accept = r.class === 'json.escaped-name';
      if (!crashed(answer) && answer.ok === accept) return undefined;
      return {
        expected: accept ? 'accepted' : 'refused: not I-JSON',
        actual: crashed(answer) ? { crashed: answer.message } : answer.ok ? 'accepted' : { code: answer.code, message: answer.message },
        message: `${r.text.note}, read as ${path}`,
        requirements: accept ? ['DRV-VALID-1'] : ['PRF-JSON-1', ...(path === 'file' ? ['DLV-FILE-1'] : path === 'inline' ? ['DLV-INLINE-1'] : [])],
      };
    });
  },
});
