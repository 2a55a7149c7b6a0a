// Resolving a command's choices against the state when it runs: a pack index
// is taken modulo the packs issued so far, so a shrunk sequence still means
// something; amounts, lifetimes and clock moves sit at the policy's bounds.
import type { Ctx } from './judge.ts';
import type { PackState } from './model.ts';
import { KEY, type RealPack, type World } from './world.ts';
import type { AdvanceChoice, AmountChoice, Caller, DatingChoice, ExpiryChoice, Identity } from './spec.ts';

/** 32 bytes that are no pack's digest (an all-zero SHA-256 output is not expected to occur). */
export const NEVER_A_DIGEST = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export const CALLER_KEY: Readonly<Record<Exclude<Caller, 'unsigned'>, string>> = {
  principal: KEY.principal,
  stranger: KEY.stranger,
  redeemer: KEY.redeemer,
  outsider: KEY.outsider,
};

/** A scenario template of an expression. */
export function ref(expression: string): string {
  return `\${${expression}}`;
}

/** Seconds from the Operator's now to the message's created_at (DatingChoice). */
export function datedOffset(choice: DatingChoice | undefined, windowSeconds: number): number {
  if (choice === undefined) return 0;
  if (choice === 'stale-before') return -(windowSeconds + 1);
  if (choice === 'stale-after') return windowSeconds + 1;
  return Math.trunc((choice.permille * windowSeconds) / 1000);
}

/** The scenario step's created_at when the message is not dated at now. */
export function createdAtField(offset: number): { created_at?: string } {
  return offset === 0 ? {} : { created_at: `\${ts(now ${offset < 0 ? '-' : '+'} ${Math.abs(offset)})}` };
}

export function pickPack(ctx: Ctx, index: number): { pack: PackState; real: RealPack } {
  const packs = ctx.m.operator.packList();
  const pack = packs[index % packs.length]!;
  return { pack, real: ctx.w.packs.get(pack.packId)! };
}

/** The id of an earlier message the Operator must still remember (PROFILE.md §6), or undefined for a fresh id. */
export function reusedId(ctx: Ctx, index: number | undefined): { id: string; expr: string } | undefined {
  if (index === undefined) return undefined;
  const candidates = ctx.w.sent.filter((s) => ctx.m.operator.remembers(s.message.id));
  if (candidates.length === 0) return undefined;
  const entry = candidates[index % candidates.length]!;
  const member = entry.message.kind === 'issue' ? 'request_id' : entry.message.kind === 'renew' ? 'renewal_id' : 'redemption_id';
  return { id: entry.message.id, expr: `${entry.sentRef}.${member}` };
}

export function identityOf(identity: Identity, w: World): { redeemer: string; identifyAs: string | false } {
  switch (identity) {
    case 'identified':
      return { redeemer: KEY.redeemer, identifyAs: KEY.redeemer };
    case 'unsigned':
      return { redeemer: KEY.redeemer, identifyAs: false };
    case 'low-level':
      // With required_identity_level 0 every level passes: the same request unsigned is the nearest failure.
      return w.redeemerLevels.has(KEY.redeemerLow) ? { redeemer: KEY.redeemerLow, identifyAs: KEY.redeemerLow } : { redeemer: KEY.redeemer, identifyAs: false };
    case 'other-redeemer':
      return { redeemer: KEY.redeemer, identifyAs: KEY.redeemer2 };
    case 'unregistered':
      return { redeemer: KEY.redeemer, identifyAs: KEY.outsider };
  }
}

export function nameOfKey(w: World, x: string): string {
  for (const [name, key] of w.keys) if (key.jwk.x === x) return name;
  throw new TypeError('a key the run did not create');
}

export function resolveAmount(choice: AmountChoice, available: bigint, max: bigint): bigint {
  const fits = (n: bigint) => (n < 1n ? 1n : n.toString().length > 78 ? max : n);
  if (typeof choice === 'object') return BigInt(choice.small);
  switch (choice) {
    case 'available':
      return fits(available);
    case 'available+1':
      return fits(available + 1n);
    case 'max':
      return fits(max);
    case 'max+1':
      return fits(max + 1n);
  }
}

/** The requested lifetime in seconds. */
export function resolveExpiry(choice: ExpiryChoice, min: number, max: number): number {
  if (typeof choice === 'object') return min + Math.floor(((max - min) * choice.permille) / 1000);
  switch (choice) {
    case 'typical':
      return Math.min(Math.max(3600, min), max);
    case 'min':
      return min;
    case 'min-1':
      return min - 1;
    case 'max':
      return max;
    case 'max+1':
      return max + 1;
  }
}

export function resolveAdvance(choice: AdvanceChoice, ctx: Ctx): number {
  const policy = ctx.m.operator.policy;
  if (choice === 'window+1') return policy.requestWindowSeconds + 1;
  if (choice === 'past-max-expiry') return policy.expiryMaxSeconds + 1;
  if ('seconds' in choice) return choice.seconds;
  const packs = ctx.m.operator.packList();
  if (packs.length === 0) return 1;
  const pack = packs[choice.toExpiryOf % packs.length]!;
  const seconds = Math.ceil((pack.expiryMs - ctx.m.operator.now) / 1000) + choice.delta;
  return Math.max(0, seconds);
}
