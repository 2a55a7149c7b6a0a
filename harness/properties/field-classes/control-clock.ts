// PROP-CTL-002: the body of the test-control clock (PROFILE.md §1, §11, §12) in
// the classes of the I-JSON rule: a body whose member names are written with
// \u escapes is the same body (a move by nothing, taken), one with a member
// written twice or after a byte order mark is refused, 400 as a problem
// document; and advance_seconds that is no integer of at least 0 (negative,
// a fraction, a numeral written as text, null, true) is refused 400 as a
// problem document, never taken to move the clock back or by a part of a
// second. The Operator's other test-control bodies are PROP-OP-014's; this
// one is apart because it moves what every test shares (by nothing, or by a
// second should a target take a duplicate), so it runs alone.
import fc from 'fast-check';
import { CONTROL_INPUTS } from '../../../profile/control.ts';
import type { ScenarioContext } from '../../scenarios/context.ts';
import { define } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { jsonRequest, send } from '../../scenarios/http.ts';
import { CONTROL_JUDGED, controlBodyInClasses } from './operator-http.ts';
import { expectProblem } from './problem.ts';
import { JSON_TEXT_CLASSES } from './variants.ts';

const FILE = 'harness/properties/field-classes/control-clock.ts';
const PATH = CONTROL_INPUTS.clock.path;
/** A move by nothing; a duplicate written with another value moves by a second. */
const BODY = { advance_seconds: 0 };

interface ClockBodyCase {
  /** Picks the variant of each class (the k-th class takes seed + k). */
  readonly seed: number;
  /** An advance_seconds PROFILE.md §12 does not allow ("integer ≥ 0"). */
  readonly advance: { readonly value: unknown; readonly note: string };
}

const COVERS: Coverage[] = [...JSON_TEXT_CLASSES, 'http.problem' as const].map((cls) => ({ field: 'control:clock', class: cls }));

const badAdvance: fc.Arbitrary<ClockBodyCase['advance']> = fc.oneof(
  fc.integer({ min: 1, max: 10 ** 9 }).map((n) => ({ value: -n, note: `${-n}, negative` })),
  fc.tuple(fc.nat({ max: 3600 }), fc.constantFrom(0.001, 0.5, 0.999)).map(([n, f]) => ({ value: n + f, note: `${n + f}, a fraction` })),
  fc.constantFrom({ value: '1', note: '"1", a numeral as text' }, { value: null, note: 'null' }, { value: true, note: 'true' }, { value: -0.5, note: '-0.5' }),
);

const cases: fc.Arbitrary<ClockBodyCase> = fc.record({ seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }), advance: badAdvance });

async function judgeCase(ctx: ScenarioContext, c: ClockBodyCase): Promise<PropertyFailure | undefined> {
  const inClasses = await controlBodyInClasses(ctx, PATH, BODY, c.seed, [200]);
  if (inClasses) return inClasses;
  return expectProblem(await send(ctx, 'operator', jsonRequest('POST', PATH, { advance_seconds: c.advance.value })), 400, undefined, `test control ${PATH} with advance_seconds ${c.advance.note} (PROFILE.md §12: an integer of at least 0)`, ['PRF-CTL-1']);
}

export const CONTROL_CLOCK = define<ClockBodyCase>({
  id: 'PROP-CTL-002',
  title: "the test-control clock's body in every class of the I-JSON rule: escaped member names taken, a member twice, a byte order mark or an advance_seconds that is no integer of at least 0 refused as a problem document",
  requirements: CONTROL_JUDGED,
  level: 'PROFILE',
  role: 'operator',
  sections: ['PROFILE §1', 'PROFILE §11', 'PROFILE §12'],
  needs: ['clock'],
  // It posts clock moves: by nothing, or by a second should a target take a duplicate.
  shares: 'clock',
  defaultRuns: 10,
  file: FILE,
  covers: COVERS,
  arbitrary: () => cases,
  check: judgeCase,
});
