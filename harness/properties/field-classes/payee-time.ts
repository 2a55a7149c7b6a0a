// PROP-PAYEE-012: a payee writes the instants of its requests from its own
// clock, in UTC, whatever its process's time zone: with the clock set to an
// instant inside daylight-saving time of a common zone, at a fraction of a
// second (one with trailing zeros among them: .100, .120, .500) or at a whole
// second, two times in seven at a whole ten seconds (…:30Z, whose digits a
// trimmer of trailing zeros would eat), the harness's TZ set to that zone, created_at is that instant to
// within the second and written as PROFILE.md §1 says, expires_at is after it
// and within the payee's validity window, and the token lives as long as the
// payee says (spec §4.8, §5.1.1; PROFILE.md §1, §12).
import fc from 'fast-check';
import { parseTimestamp } from '../../../profile/time.ts';
import { SUB_INTERFACES } from '../../../profile/cpr/fields.ts';
import { dstInstant, type DstInstant } from '../../../generators/classes/index.ts';
import { control } from '../../scenarios/actions/index.ts';
import { define } from '../support.ts';
import type { Coverage, PropertyFailure } from '../types.ts';
import { restoreClock, setClock } from './clock.ts';
import { inZone } from './app-time.ts';
import { payeeConfig } from './payee-config.ts';

const FILE = 'harness/properties/field-classes/payee-time.ts';

interface PayeeTimeCase {
  readonly instant: DstInstant;
  /** Milliseconds past the instant's second (0: the whole second), or the instant taken down to its ten seconds. */
  readonly fraction: number | 'ten-seconds';
  readonly sub: string;
}

const COVERS: Coverage[] = [
  { field: 'control:clock/set', class: 'timestamp.dst' },
  { field: 'control:clock/set', class: 'timestamp.fraction' },
];

const within = (ms: number | undefined, from: number, to: number): boolean => ms !== undefined && ms >= from && ms <= to;

export const PAYEE_TIME = define<PayeeTimeCase>({
  id: 'PROP-PAYEE-012',
  title: "the payee dates its requests and tokens by its own clock in UTC, in any time zone: inside daylight-saving time and at a fraction of a second",
  requirements: ['CPR-TIME-1', 'CPR-TIME-2', 'PRF-TIME-1', 'TOK-EXP-1', 'PRF-CTL-1'],
  level: 'MUST',
  role: 'payee',
  sections: ['§2.1', '§4.8', '§5.1.1', 'PROFILE §1', 'PROFILE §12'],
  needs: ['provision', 'clock'],
  // It moves the clock through test control and sets the process's time zone (inZone): alone in the process, so that no in-process paying application beside it judges in that zone.
  shares: 'clock-and-time-zone',
  defaultRuns: 10,
  file: FILE,
  covers: COVERS,
  arbitrary: () =>
    fc.record({
      instant: dstInstant(),
      fraction: fc.oneof(
        { weight: 4, arbitrary: fc.oneof(fc.integer({ min: 1, max: 999 }), fc.constantFrom(1, 10, 100, 120, 500, 990, 999)) },
        { weight: 1, arbitrary: fc.constant(0) },
        { weight: 2, arbitrary: fc.constant('ten-seconds' as const) },
      ),
      sub: fc.constantFrom(...SUB_INTERFACES),
    }),
  async check(ctx, c) {
    const { validitySeconds: validity, tokenLifetimeSeconds: lifetime } = await payeeConfig(ctx);
    const at = c.fraction === 'ten-seconds' ? c.instant.value - (c.instant.value % 10_000) : c.instant.value + c.fraction;
    return inZone(c.instant.zone, async (): Promise<PropertyFailure | undefined> => {
      await setClock(ctx, 'payee', at);
      const body = (await control(ctx, 'payee', 'POST', '/_control/payee/requests', { sub_interface: c.sub })) as { cpr?: { created_at?: unknown; expires_at?: unknown }; token_expires_at?: unknown };
      const createdAt = parseTimestamp(body.cpr?.created_at);
      const expiresAt = parseTimestamp(body.cpr?.expires_at);
      const tokenExpires = parseTimestamp(body.token_expires_at);
      const where = `the clock set to ${new Date(at).toISOString()} (${c.instant.note})`;
      const seen = { created_at: body.cpr?.created_at, expires_at: body.cpr?.expires_at, token_expires_at: body.token_expires_at };
      if (!within(createdAt, at - 999, at)) return { expected: `created_at within the second before ${new Date(at).toISOString()}, written per PROFILE.md §1`, actual: seen, message: where, requirements: ['CPR-TIME-1', 'PRF-TIME-1'] };
      if (!within(expiresAt, createdAt! + 1, createdAt! + validity * 1000)) return { expected: `expires_at after created_at, within ${validity} s`, actual: seen, message: where, requirements: ['CPR-TIME-2'] };
      if (!within(tokenExpires, at - 999 + lifetime * 1000, at + lifetime * 1000)) return { expected: `token_expires_at ${lifetime} s after the clock`, actual: seen, message: where, requirements: ['TOK-EXP-1', 'PRF-CTL-1'] };
      return undefined;
    });
  },
  teardown: (ctx) => restoreClock(ctx, 'payee'),
});
