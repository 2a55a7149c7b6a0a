// Resolving a command's choices against the state when it runs: a pack index
// is taken modulo the packs issued so far, so a shrunk sequence still means
// something; amounts, lifetimes and clock moves sit at the policy's bounds.
import { formatTimestamp, newUuid, parseTimestamp, signObject, toAmount } from '../../profile/index.ts';
import type { AssetDescriptor, CashPack } from '../../profile/cashpack/index.ts';
import { unlistedAsset } from '../../generators/cashpack/assets.ts';
import { flipped } from '../../generators/cashpack/corruptions.ts';
import type { Ctx } from './judge.ts';
import { assetKey, type PackState } from './model.ts';
import { KEY, type RealPack, type World } from './world.ts';
import type { AdvanceChoice, AmountBound, AmountChoice, AssetChoice, Caller, DatingChoice, ExpiryChoice, Identity, Presented, Tamper } from './spec.ts';

/** The largest amount there is: 78 nines (PROFILE.md §1). */
export const LARGEST_AMOUNT = 10n ** 78n - 1n;

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

/** The bounds an amount is chosen near (AmountChoice). */
function boundOf(bound: AmountBound, available: bigint, max: bigint): bigint {
  switch (bound) {
    case 'max':
      return max;
    case 'available':
      return available;
    case '2^53':
      return 2n ** 53n;
    case '2^64':
      return 2n ** 64n;
    case 'largest':
      return LARGEST_AMOUNT;
  }
}

export function resolveAmount(choice: AmountChoice, available: bigint, max: bigint): bigint {
  const fits = (n: bigint) => (n < 1n ? 1n : n > LARGEST_AMOUNT ? LARGEST_AMOUNT : n);
  if (typeof choice === 'object') {
    if ('small' in choice) return BigInt(choice.small);
    if ('permille' in choice) return fits((max * BigInt(choice.permille)) / 1000n);
    return fits(boundOf(choice.near, available, max) + BigInt(choice.delta));
  }
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
  if ('toRetentionOf' in choice) {
    // The last whole second at which the id must still be remembered: recorded at t, now < t + 2 × window.
    const sent = ctx.w.sent.filter((s) => ctx.m.operator.remembers(s.message.id));
    if (sent.length === 0) return 1;
    const at = ctx.m.operator.recordedAt(sent[choice.toRetentionOf % sent.length]!.message.id)!;
    return Math.max(0, Math.ceil((at + ctx.m.operator.retentionMs - ctx.m.operator.now) / 1000) - 1);
  }
  const packs = ctx.m.operator.packList();
  if (packs.length === 0) return 1;
  const pack = packs[choice.toExpiryOf % packs.length]!;
  const seconds = Math.ceil((pack.expiryMs - ctx.m.operator.now) / 1000) + choice.delta;
  return Math.max(0, seconds);
}

/** The asset a Lock Request names: the Principal's own, one of the policy's, or one the policy does not list. */
export function resolveAsset(choice: AssetChoice | undefined, w: World): AssetDescriptor {
  const assets = w.context.policyDocument.assets;
  if (choice === undefined) return w.principalAsset;
  if (choice === 'unlisted') return unlisted(assets);
  return assets[choice.policy % assets.length]!;
}

/** A fiat asset the policy does not list (as the scenario function unlisted_asset() picks one; XTS when it lists them all). */
function unlisted(assets: readonly AssetDescriptor[]): AssetDescriptor {
  return unlistedAsset(assets) ?? { type: 'fiat', code: 'XTS' };
}

/** The signed version of a pack a command presents, and how the scenario names it. */
function presentedVersion(real: RealPack, choice: Presented | undefined): { readonly pack: CashPack; readonly ref: string } {
  if (choice === undefined || choice === 'known') return { pack: real.known, ref: real.knownRef };
  if (choice === 'first') return { pack: real.first, ref: real.firstRef };
  return real.versions[choice.version % real.versions.length]!;
}

/**
 * A presented version with one member changed (spec.ts Tamper), and the
 * scenario step that makes the same change: the chain_digest stays, so only
 * the signature tells it from the genuine version (PROFILE.md §5 step 2).
 */
export function tamperedPack(w: World, version: { readonly pack: CashPack; readonly ref: string }, tamper: Tamper): { readonly pack: CashPack; readonly fields: Record<string, unknown> } {
  const { signature, ...unsigned } = version.pack;
  const at = (member: string) => `${version.ref}.${member}`;
  const seconds = (member: 'expiry' | 'issued_at', delta: number) => ({
    value: formatTimestamp(parseTimestamp(unsigned[member], 'cashpack')! + delta * 1000, 'cashpack'),
    template: ref(`ts(div(ms(${at(member)}), 1000) ${delta < 0 ? '-' : '+'} ${Math.abs(delta)})`),
  });
  const amount = BigInt(unsigned.amount);
  const changed: { readonly value: unknown; readonly template: unknown } | undefined = (() => {
    switch (tamper.member) {
      case 'amount':
        return amount < LARGEST_AMOUNT ? { value: toAmount(amount + 1n), template: ref(`${at('amount')} + 1`) } : { value: toAmount(amount - 1n), template: ref(`${at('amount')} - 1`) };
      case 'expiry':
        return seconds('expiry', 1);
      case 'issued_at':
        return seconds('issued_at', -1);
      case 'current_bearer_pk':
        return { value: w.jwk(KEY.outsider), template: ref(KEY.outsider) };
      case 'asset': {
        const other = unlistedAsset([unsigned.asset]);
        return { value: other, template: other };
      }
      case 'pack_id': {
        const id = newUuid();
        return { value: id, template: ref('uuid()') };
      }
      case 'signature':
        return undefined;
    }
  })();
  const content = changed === undefined ? unsigned : { ...unsigned, [tamper.member]: changed.value };
  const fields: Record<string, unknown> = { do: 'tamper', value: ref(version.ref), ...(changed !== undefined ? { set: { [tamper.member]: changed.template } } : {}) };
  if (tamper.how === 'resigned') {
    fields.resign = { type: 'cash-pack', key: KEY.outsider };
    return { pack: signObject('cash-pack', content, w.key(KEY.outsider).secretKey) as CashPack, fields };
  }
  if (changed !== undefined) return { pack: { ...content, signature } as CashPack, fields };
  fields.flip_signature = true;
  return { pack: { ...content, signature: flipped(signature) } as CashPack, fields };
}

/** A scenario step's asset, when it is not the policy's first (the scenario's default). */
export function assetField(w: World, asset: AssetDescriptor): { asset?: AssetDescriptor } {
  return assetKey(asset) === assetKey(w.context.policyDocument.assets[0]!) ? {} : { asset };
}

/**
 * The version of a pack a renewal or redemption presents (spec.ts Presented),
 * tampered when the spec says so: the scenario makes the same change in a
 * `tamper` step of its own, and the request presents what that step captured.
 */
export function present(ctx: Ctx, real: RealPack, choice: Presented | undefined, tamper: Tamper | undefined): { readonly pack: CashPack; readonly ref: string; readonly tampered: boolean } {
  const version = presentedVersion(real, choice);
  if (tamper === undefined) return { ...version, tampered: false };
  const changed = tamperedPack(ctx.w, version, tamper);
  const capture = ctx.w.capture();
  ctx.w.step({ ...changed.fields, as: capture });
  return { pack: changed.pack, ref: capture, tampered: true };
}
