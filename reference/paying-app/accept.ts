// Spec §4.5 step 1, §4.4 (file / direct JSON) and PROFILE.md §8.2: cpr_version
// first, then the whole request, then expires_at against the application's clock.
import { parseTimestamp } from '../../profile/index.ts';
import { CPR_VERSION, RAIL_HINT_NAMES, validateCpr, type RailHint, type Violation } from '../../profile/cpr/index.ts';
import { NO_FAULTS, type Faults } from '../mutants.ts';
import { mutantValidation } from './mutant-validation.ts';
import { reject, type Accepted, type Rejection } from './rejection.ts';

export function accept(input: unknown, now: number, faults: Faults = NO_FAULTS): Accepted | Rejection {
  // Mutant app-rail-hint-case-folded: rail_hint is upper-cased before it is read, so "on_chain" is taken for ON_CHAIN.
  const doc = faults.has('app-rail-hint-case-folded') ? foldedRailHint(input) : input;
  // Stryker disable next-line ConditionalExpression: for a document that is no object, no rule orders CPR_VERSION_UNSUPPORTED before CPR_INVALID (PROFILE.md §8.3); validation refuses it either way
  if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) {
    const version = (doc as Record<string, unknown>).cpr_version;
    // Mutant app-version-decides-only-alone: CPR_VERSION_UNSUPPORTED only when the version is all that is wrong.
    // Stryker disable next-line all: only the app-version-decides-only-alone fault validates before the version
    const otherDefects = faults.has('app-version-decides-only-alone') && hasOtherDefects(doc, faults);
    // Mutant app-version-unchecked: any version goes on.
    if (version !== CPR_VERSION && !faults.has('app-version-unchecked') && !otherDefects) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: free text for a reader (a rejection message: only its presence is a rule, PROFILE.md §8.3)
      const shown = version === undefined ? 'no cpr_version' : `cpr_version ${JSON.stringify(version)}`;
      // Stryker disable next-line ObjectLiteral: violations are required with CPR_INVALID only (PROFILE.md §8.3); beside CPR_VERSION_UNSUPPORTED they are optional
      return reject('CPR_VERSION_UNSUPPORTED', `This payment request has ${shown}; this application reads ${CPR_VERSION} only.`, {
        // Stryker disable next-line ArrayDeclaration,StringLiteral: as above, an optional list beside CPR_VERSION_UNSUPPORTED
        violations: [{ requirement: 'CPR-VER-1', path: '/cpr_version', message: `must be "${CPR_VERSION}"` }],
      });
    }
  }
  let result = validateCpr(doc);
  // With no fault switched on, mutantValidation gives back the validation it was given; its switches are consulted all the same.
  result = mutantValidation(doc, result, faults);
  if (!result.ok) return reject('CPR_INVALID', invalidMessage(result.violations), { violations: result.violations });
  // Mutant app-unknown-rail-hint-crash: a rail name looked up without asking whether the hint is known.
  if (faults.has('app-unknown-rail-hint-crash') && result.cpr.rail_hint !== undefined) RAIL_HINT_NAMES[result.cpr.rail_hint as RailHint].toLowerCase();
  // validateCpr guarantees a parseable expires_at.
  const expires = expiryInstant(result.cpr.expires_at, faults);
  // Spec §4.5.1: expires_at MUST be in the future; the instant itself is too late (PROFILE.md §8.3).
  if (expiredAt(expires, now, faults)) return reject('CPR_EXPIRED', `This payment request expired at ${result.cpr.expires_at} and can no longer be paid.`);
  return { ok: true, cpr: result.cpr, subInterface: result.subInterface, notices: result.notices };
}

/**
 * Mutant app-timestamp-fraction-unbounded: read with Date.parse, whatever the
 * fraction. Mutant app-expiry-local-time: the instant built from its fields with
 * the local-time Date constructor, which is UTC only where the device's zone is.
 */
function expiryInstant(text: string, faults: Faults): number {
  if (faults.has('app-timestamp-fraction-unbounded')) return Date.parse(text);
  // Stryker disable next-line Regex: only the app-expiry-local-time fault reads these fields
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/.exec(text);
  if (faults.has('app-expiry-local-time') && m) {
    const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    return new Date(y, mo - 1, d, h, mi, s, Number((m[7] ?? '0').padEnd(3, '0'))).getTime();
  }
  if (faults.has('app-expiry-fraction-leading-zeros-dropped')) return fractionAsNumber(text);
  // Stryker disable next-line UnaryOperator: validation has accepted expires_at before: parseTimestamp never fails here
  return parseTimestamp(text, 'cpr') ?? -Infinity;
}

// Stryker disable all: only the app-expiry-fraction-leading-zeros-dropped fault calls this function
/** Mutant app-expiry-fraction-leading-zeros-dropped: the fraction read as a number and padded to milliseconds, so .05 is 500 ms. */
function fractionAsNumber(text: string): number {
  const fraction = /\.(\d+)Z$/.exec(text)?.[1] ?? '0';
  return (parseTimestamp(text.replace(/\.\d+Z$/, 'Z'), 'cpr') ?? -Infinity) + Number(String(Number(fraction)).padEnd(3, '0'));
}
// Stryker restore all

// Stryker disable all: only the app-version-decides-only-alone fault calls this function
function hasOtherDefects(doc: unknown, faults: Faults): boolean {
  const result = mutantValidation(doc, validateCpr(doc), faults);
  return !result.ok && !result.violations.every((v) => v.path === '/cpr_version');
}
// Stryker restore all

// Stryker disable all: only the app-rail-hint-case-folded fault calls this function
function foldedRailHint(doc: unknown): unknown {
  return typeof doc === 'object' && doc !== null && !Array.isArray(doc) && typeof (doc as { rail_hint?: unknown }).rail_hint === 'string'
    ? { ...doc, rail_hint: (doc as { rail_hint: string }).rail_hint.toUpperCase() }
    : doc;
}
// Stryker restore all

function expiredAt(expires: number, now: number, faults: Faults): boolean {
  if (faults.has('app-past-expiry-accepted')) return false; // mutant: never compared
  if (faults.has('app-expiry-instant-accepted')) return expires < now; // mutant: off by one
  if (faults.has('app-expiry-clock-truncated')) return expires <= Math.floor(now / 1000) * 1000; // mutant: its clock read to the second
  return expires <= now;
}

// Stryker disable all: free text for a reader (a rejection message: only its presence is a rule, PROFILE.md §8.3), and the violations carry the findings
function invalidMessage(violations: readonly Violation[]): string {
  const [first] = violations;
  if (!first) return 'This payment request is not valid.';
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more problem${violations.length > 2 ? 's' : ''})` : '';
  return `This payment request is not valid: ${first.path || 'the request'} ${first.message} [${first.requirement}]${more}.`;
}
// Stryker restore all
