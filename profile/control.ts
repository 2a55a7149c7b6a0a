// The test-control vocabulary of PROFILE.md §12, owned here: the reference
// serves it, the harness speaks it, and the JSON Schemas that name it (the
// scenario schema is generated from these constants; the target-file schema
// is checked against them by a test) say the same.

import { isAmount } from './amount.ts';
import { codePoints } from './cpr/formats.ts';
import { isRailHint, isSubInterface } from './cpr/fields.ts';
import { findPayerMembers } from './cpr/payer-data.ts';

/** The capabilities a target may list at `GET /_control/capabilities`. */
export const CAPABILITIES = ['provision', 'clock', 'cancel', 'balance', 'fulfil', 'lease'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * The lease (PROFILE.md §12): the header that carries its lease_id on test-control
 * requests (lower case, as HTTP/1.1 servers hand header names over), the bounds
 * of its TTL and of the holder's name.
 */
export const LEASE = { header: 'control-lease', ttlSeconds: { min: 1, max: 3600 }, holderMaxLength: 200 } as const;

/**
 * The test-control requests that change what every client of the
 * implementation sees (PROFILE.md §12): its one clock, and the lease that
 * guards it. Provisioning, `cancel` and `fulfil` act only on the parties,
 * requests and packs their caller created ("Only the clock is guarded"), and
 * reads change nothing. A harness test that sends one of these runs alone.
 */
export const SHARED_STATE_ROUTES = [
  { method: 'POST', path: /^\/_control\/clock$/, capability: 'clock' },
  { method: 'POST', path: /^\/_control\/lease(?:\/[^/]+)?$/, capability: 'lease' },
  { method: 'DELETE', path: /^\/_control\/lease\/[^/]+$/, capability: 'lease' },
] as const satisfies readonly { method: string; path: RegExp; capability: Capability }[];

/** Whether a request moves state every client of the implementation shares (SHARED_STATE_ROUTES); the query is not part of the route. */
export function movesSharedState(method: string, path: string): boolean {
  const bare = path.split('?')[0]!;
  return SHARED_STATE_ROUTES.some((route) => route.method === method.toUpperCase() && route.path.test(bare));
}

/** The identity levels a redeemer is provisioned at (`identity_level`, and the policy's `required_identity_level`, PROFILE.md §4.8). */
export const IDENTITY_LEVELS = { min: 0, max: 3 } as const;

/** `GET /_control/payee/config`. */
export interface PayeeConfig {
  readonly base_url: string;
  readonly token_lifetime_seconds: number;
  readonly request_validity_seconds: number;
  readonly plaintext_base_url?: string;
}

/** `POST /_control/payee/requests` response (`C` the CPR's type). */
export interface CreatedRequest<C = unknown> {
  readonly request_id: string;
  readonly cpr: C;
  readonly token: string;
  readonly token_expires_at: string;
  readonly qr_uri: string;
  /** Spec §4.4: the same URI format as the QR code (the same URI, one token). */
  readonly deep_link: string;
  /** Absent when the request is too large for a 2 048-byte inline URI (PROFILE.md §8.1). */
  readonly inline_uri?: string;
  /** Standard base64 of the PNG. */
  readonly qr_png: string;
}

export function isIdentityLevel(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= IDENTITY_LEVELS.min && (value as number) <= IDENTITY_LEVELS.max;
}

/** What a member of a test-control message holds, in the profile's words. */
export type ControlMemberKind = 'enumeration' | 'amount' | 'balance' | 'text' | 'extensions' | 'jwk' | 'asset' | 'integer' | 'boolean' | 'timestamp';

/** A test-control request a target reads (PROFILE.md §12): where it goes, who reads it, and its members. */
interface ControlInput {
  readonly method: 'POST';
  readonly path: string;
  readonly readers: readonly ('payee' | 'operator')[];
  readonly members: Readonly<Record<string, ControlMemberKind>>;
}

/** The bodies of the test-control requests of PROFILE.md §12, member by member. */
export const CONTROL_INPUTS = {
  'payee-request': {
    method: 'POST',
    path: '/_control/payee/requests',
    readers: ['payee'],
    members: { sub_interface: 'enumeration', amount: 'amount', memo: 'text', rail_hint: 'enumeration', extensions: 'extensions', display_name: 'text' },
  },
  principal: { method: 'POST', path: '/_control/operator/principals', readers: ['operator'], members: { public_key: 'jwk', asset: 'asset', balance: 'balance' } },
  redeemer: { method: 'POST', path: '/_control/operator/redeemers', readers: ['operator'], members: { public_key: 'jwk', identity_level: 'integer' } },
  staff: { method: 'POST', path: '/_control/operator/staff', readers: ['operator'], members: { public_key: 'jwk' } },
  clock: { method: 'POST', path: '/_control/clock', readers: ['payee', 'operator'], members: { freeze: 'boolean', set: 'timestamp', advance_seconds: 'integer' } },
  // The lease (capability lease): acquired naming its holder, renewed by its lease_id.
  lease: { method: 'POST', path: '/_control/lease', readers: ['payee', 'operator'], members: { holder: 'text', ttl_seconds: 'integer' } },
  'lease-renewal': { method: 'POST', path: '/_control/lease/{lease_id}', readers: ['payee', 'operator'], members: { ttl_seconds: 'integer' } },
} as const satisfies Readonly<Record<string, ControlInput>>;

/** Where a Principal's or a redeemer's balance is read (capability balance, PROFILE.md §12), by its key's kid. */
export function balancePath(party: 'principal' | 'redeemer', kid: string): string {
  return `/_control/operator/${party}s/${encodeURIComponent(kid)}/balance`;
}

/**
 * Whether the profile lets a payee serve what a `POST /_control/payee/requests`
 * body asks for (PROFILE.md §7, §12): a sub-interface, and each optional member
 * one a CPR can carry (an amount, a memo and a display_name of at most 140 code
 * points, a rail_hint the sub-interface travels on, extensions without payer
 * data). A payee creates every such request; it may refuse any other.
 */
export function payeeRequestAllowed(input: unknown): boolean {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  const r = input as Readonly<Record<string, unknown>>;
  const sub = r.sub_interface;
  if (!isSubInterface(sub)) return false;
  if (r.amount !== undefined && !isAmount(r.amount)) return false;
  if (r.memo !== undefined && !(typeof r.memo === 'string' && codePoints(r.memo) <= 140)) return false;
  if (r.display_name !== undefined && !(typeof r.display_name === 'string' && codePoints(r.display_name) >= 1 && codePoints(r.display_name) <= 140)) return false;
  if (r.rail_hint !== undefined && !(isRailHint(r.rail_hint) && (r.rail_hint === 'ON_CHAIN') === (sub === 'ON_CHAIN'))) return false;
  // extensions is an object (PROFILE.md §7.1); null, an array or a scalar is none.
  if (r.extensions !== undefined && (typeof r.extensions !== 'object' || r.extensions === null || Array.isArray(r.extensions) || findPayerMembers(r.extensions).length > 0)) return false;
  return true;
}
