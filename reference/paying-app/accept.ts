// Spec §4.5 step 1, §4.4 (file / direct JSON) and PROFILE.md §8.2: cpr_version
// first, then the whole request, then expires_at against the application's clock.
import { parseTimestamp } from '../../profile/index.ts';
import { CPR_VERSION, validateCpr, type Violation } from '../../profile/cpr/index.ts';
import { reject, type Accepted, type Rejection } from './rejection.ts';

export function accept(doc: unknown, now: number): Accepted | Rejection {
  if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) {
    const version = (doc as Record<string, unknown>).cpr_version;
    if (version !== CPR_VERSION) {
      const shown = version === undefined ? 'no cpr_version' : `cpr_version ${JSON.stringify(version)}`;
      return reject('CPR_VERSION_UNSUPPORTED', `This payment request has ${shown}; this application reads ${CPR_VERSION} only.`, {
        violations: [{ requirement: 'CPR-VER-1', path: '/cpr_version', message: `must be "${CPR_VERSION}"` }],
      });
    }
  }
  const result = validateCpr(doc);
  if (!result.ok) return reject('CPR_INVALID', invalidMessage(result.violations), { violations: result.violations });
  // validateCpr guarantees a parseable expires_at.
  const expires = parseTimestamp(result.cpr.expires_at, 'cpr') ?? -Infinity;
  // Spec §4.5.1: expires_at MUST be in the future; the instant itself is too late (PROFILE.md §8.3).
  if (expires <= now) return reject('CPR_EXPIRED', `This payment request expired at ${result.cpr.expires_at} and can no longer be paid.`);
  return { ok: true, cpr: result.cpr, subInterface: result.subInterface, notices: result.notices };
}

function invalidMessage(violations: readonly Violation[]): string {
  const [first] = violations;
  if (!first) return 'This payment request is not valid.';
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more problem${violations.length > 2 ? 's' : ''})` : '';
  return `This payment request is not valid: ${first.path || 'the request'} ${first.message} [${first.requirement}]${more}.`;
}
