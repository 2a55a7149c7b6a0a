// The reference paying application (spec §1.1 role; §4.4-§4.8; PROFILE.md §8.3, §9):
// reads a CPR from any delivery, derives a Payment, and answers every failure
// with a Rejection value.
import { RAIL_HINTS } from '../../profile/cpr/index.ts';
import { NO_FAULTS, type Faults } from '../mutants.ts';
import { APP_FAULTS, faultyApp } from '../faults/app.ts';
import { derivePayment, type Derivation } from './derive.ts';
import { checkAllowedHosts } from './hosts.ts';
import type { DerivationContext } from './payment.ts';
import { readCpr, type ReadInput } from './read.ts';
import type { Accepted, Rejection } from './rejection.ts';

export interface PayingAppOptions {
  /** Milliseconds since the epoch; default Date.now. */
  readonly clock?: () => number;
  /** PEM of the CA to trust for token retrieval; the system's trust store when absent. */
  readonly ca?: string;
  /** Rails the application can pay with; default all eight rail_hint values. */
  readonly supportedRails?: readonly string[];
  /** Whole retrieval (connect, headers, body); default 5 000 ms. */
  readonly retrievalTimeoutMs?: number;
  /** Largest retrieved body or file; default 65 536 bytes (PROFILE.md §1). */
  readonly maxBodyBytes?: number;
  /** A fault to switch on (reference/mutants.ts); default NO_FAULTS, the correct application. */
  readonly faults?: Faults;
  /**
   * Hosts a token URI's endpoint may name, as `host` (any port) or `host:port`
   * (hosts.ts); a URI naming any other is rejected with RETRIEVAL_FAILED before a
   * connection is made. Default: any host.
   */
  readonly allowedHosts?: readonly string[];
}

export interface PayingApp {
  read(input: ReadInput): Promise<Accepted | Rejection>;
  derive(cpr: unknown, context: DerivationContext): Derivation;
  /** read, then derive. */
  process(input: ReadInput, context: DerivationContext): Promise<Derivation>;
}

export function createPayingApp(options: PayingAppOptions = {}): PayingApp {
  const now = options.clock ?? Date.now;
  const supportedRails = options.supportedRails ?? RAIL_HINTS;
  // Stryker disable all: the reference's own start-up options (bad ones throw at construction, test/reference covers them), and its host allow-list, a defence no rule of the spec or profile binds (the harness keeps to the list before it asks, harness/ADAPTERS.md)
  const timeoutMs = positive('retrievalTimeoutMs', options.retrievalTimeoutMs ?? 5000);
  const maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes ?? 65_536);
  if (!Array.isArray(supportedRails) || !supportedRails.every((r) => typeof r === 'string')) {
    throw new TypeError('supportedRails must be an array of strings');
  }
  const faults = options.faults ?? NO_FAULTS;
  const allowedHosts = options.allowedHosts === undefined ? undefined : checkAllowedHosts(options.allowedHosts);
  // Stryker restore all
  const readSettings = {
    now,
    timeoutMs,
    maxBodyBytes,
    faults,
    // Stryker disable next-line ConditionalExpression: `ca: undefined` is no CA option, as its absence is
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
    // Stryker disable next-line all: the host allow-list is the reference's own defence (above)
    ...(allowedHosts !== undefined ? { allowedHosts } : {}),
  };
  const deriveSettings = { now, supportedRails, faults };

  const app: PayingApp = {
    read: (input) => readCpr(input, readSettings),
    derive: (cpr, context) => derivePayment(cpr, context, deriveSettings),
    async process(input, context) {
      const read = await readCpr(input, readSettings);
      if (!read.ok) return read;
      const derived = derivePayment(read.cpr, context, deriveSettings);
      // Stryker disable next-line ArrayDeclaration: the adapter calls read and derive (harness/ADAPTERS.md); process, their composition for library users, is covered by test/reference
      return derived.ok ? { ...derived, notices: [...new Set([...read.notices, ...derived.notices])] } : derived;
    },
  };
  // The paying application's fuzzer mutants: retrieval, reading or derivation written again with one careless step (reference/faults/app.ts).
  return faults.hasAny(APP_FAULTS) ? faultyApp(app, readSettings) : app;
}

/** Bad options throw at construction (STYLE.md). */
function positive(name: string, value: number): number {
  // Stryker disable next-line all: the reference's own start-up options (bad ones throw at construction, test/reference covers them), not its behaviour on the wire
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}
