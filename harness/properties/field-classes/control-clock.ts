// PROP-CTL-002: the body of the test-control clock (PROFILE.md §1, §11, §12) in
// the classes of the I-JSON rule: a body whose member names are written with
// \u escapes is the same body (a move by nothing, taken), one with a member
// written twice or after a byte order mark is refused, 400 as a problem
// document. The Operator's other test-control bodies are PROP-OP-014's; this
// one is apart because it moves what every test shares (by nothing, or by a
// second should a target take a duplicate), so it runs alone.
import fc from 'fast-check';
import { CONTROL_INPUTS } from '../../../profile/control.ts';
import type { ScenarioContext } from '../../scenarios/context.ts';
import { define } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { CONTROL_JUDGED, controlBodyInClasses } from './operator-http.ts';
import { JSON_TEXT_CLASSES } from './variants.ts';

const FILE = 'harness/properties/field-classes/control-clock.ts';
const PATH = CONTROL_INPUTS.clock.path;
/** A move by nothing; a duplicate written with another value moves by a second. */
const BODY = { advance_seconds: 0 };

interface ClockBodyCase {
  /** Picks the variant of each class (the k-th class takes seed + k). */
  readonly seed: number;
}

const COVERS: Coverage[] = [...JSON_TEXT_CLASSES, 'http.problem' as const].map((cls) => ({ field: 'control:clock', class: cls }));

const cases: fc.Arbitrary<ClockBodyCase> = fc.record({ seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }) });

function judgeCase(ctx: ScenarioContext, c: ClockBodyCase): Promise<PropertyFailure | undefined> {
  return controlBodyInClasses(ctx, PATH, BODY, c.seed, [200]);
}

export const CONTROL_CLOCK = define<ClockBodyCase>({
  id: 'PROP-CTL-002',
  title: "the test-control clock's body in every class of the I-JSON rule: escaped member names taken, a member twice or a byte order mark refused as a problem document",
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
