// The test-control interface, Operator rows (PROFILE.md §12): provisioning
// (provision.ts), cancellation (spec §3.2, an Operator action outside the API) and
// balances. Each operation is also a plain method of the Operator for in-process
// callers; the routes at the end adapt them to HTTP.
import { toAmount } from '../../profile/index.ts';
import type { AssetDescriptor } from '../../profile/cashpack/index.ts';
import { json, problemResponse } from '../http/respond.ts';
import { readJson } from './body.ts';
import { failure, success, type Endpoint, type OperatorContext, type Attempt } from './context.ts';
import { applyExpiry, applyPrincipalExpiries } from './expiry.ts';
import { provisionPrincipal, provisionRedeemer, provisionStaff, type Provisioned } from './provision.ts';
import { assetKey } from './state.ts';
import { endPack } from './transitions.ts';

export interface PrincipalBalance {
  readonly asset: AssetDescriptor;
  readonly available: string;
  readonly locked: string;
  readonly held: string;
}

export interface RedeemerBalance {
  readonly asset: AssetDescriptor;
  readonly available: string;
}

export interface Cancelled {
  readonly pack_id: string;
  readonly status: 'CANCELLED';
}

/** POST /_control/operator/packs/{pack_id}/cancel (PROFILE.md §5.1): ACTIVE → CANCELLED, locked → held. */
export function cancelPack(ctx: OperatorContext, packId: string): Attempt<Cancelled> {
  const record = ctx.state.packs.get(packId);
  if (!record) return failure('NOT_FOUND', 'unknown pack_id');
  const now = ctx.clock.now();
  applyExpiry(ctx.state, record, now);
  if (record.status !== 'ACTIVE') {
    // Mutant ctl-cancel-terminal-ok: reports success and changes nothing.
    if (ctx.faults.has('ctl-cancel-terminal-ok')) return success({ pack_id: packId, status: 'CANCELLED' });
    return failure('INSTRUMENT_NOT_ACTIVE', `the pack is ${record.status}: terminal states never change`);
  }
  // Mutant op-cancel-updated-at-unstamped: a cancellation taken for no change of the pack's own, updated_at left as it was.
  endPack(ctx.state, record, { status: 'CANCELLED' }, ctx.faults.has('op-cancel-updated-at-unstamped') ? record.updatedAtMs : now);
  return success({ pack_id: packId, status: 'CANCELLED' });
}

/** GET /_control/operator/principals/{kid}/balance, after applying expiry (PROFILE.md §5.1). */
export function principalBalance(ctx: OperatorContext, kid: string): Attempt<PrincipalBalance> {
  const principal = ctx.state.principals.get(kid);
  if (!principal) return failure('NOT_FOUND', 'unknown Principal kid');
  applyPrincipalExpiries(ctx.state, principal, ctx.clock.now());
  return success({
    asset: { ...principal.asset },
    available: toAmount(principal.available),
    locked: toAmount(principal.locked),
    held: toAmount(principal.held),
  });
}

/**
 * GET /_control/operator/redeemers/{kid}/balance. PROFILE.md §12 names one asset;
 * a redeemer holds funds per asset, and the route reports the policy's first asset.
 */
export function redeemerBalance(ctx: OperatorContext, kid: string, asset: AssetDescriptor = ctx.policy.assets[0]!): Attempt<RedeemerBalance> {
  const redeemer = ctx.state.redeemers.get(kid);
  if (!redeemer) return failure('NOT_FOUND', 'unknown redeemer kid');
  // Mutant ctl-redeemer-balance-unknown-before-credit: a redeemer never credited in the asset is answered 404, as if its account did not exist.
  if (ctx.faults.has('ctl-redeemer-balance-unknown-before-credit') && !redeemer.credits.has(assetKey(asset))) return failure('NOT_FOUND', 'the redeemer holds no funds in that asset');
  return success({ asset, available: toAmount(redeemer.credits.get(assetKey(asset))?.available ?? 0n) });
}

// HTTP adapters.

function answer<T>(outcome: Attempt<T>, status: number) {
  return outcome.ok ? json(status, outcome.value) : problemResponse(outcome.problem.code, outcome.problem.detail);
}

function provisionRoute(operation: (ctx: OperatorContext, input: unknown) => Attempt<Provisioned>, registered: (ctx: OperatorContext, kid: string) => boolean): Endpoint {
  return (ctx, request) => {
    // Mutant op-control-bom-stripped: a byte order mark before a provisioning body is dropped, as many JSON body parsers do.
    const bom = ctx.faults.has('op-control-bom-stripped') && request.body[0] === 0xef && request.body[1] === 0xbb && request.body[2] === 0xbf;
    const body = readJson(ctx, bom ? { ...request, body: request.body.subarray(3) } : request);
    if (!body.ok) return body.response;
    // Mutant ctl-reprovision-answered-200: 201 when the account is created, 200 when a key already registered is provisioned again.
    const kid = (body.value as { public_key?: { kid?: unknown } } | null)?.public_key?.kid;
    const known = ctx.faults.has('ctl-reprovision-answered-200') && typeof kid === 'string' && registered(ctx, kid);
    return answer(operation(ctx, body.value), known ? 200 : 201);
  };
}

export const principalsRoute = provisionRoute(provisionPrincipal, (ctx, kid) => ctx.state.principals.has(kid));
export const redeemersRoute = provisionRoute(provisionRedeemer, (ctx, kid) => ctx.state.redeemers.has(kid));
export const staffRoute = provisionRoute(provisionStaff, (ctx, kid) => ctx.state.staff.has(kid));
export const cancelRoute: Endpoint = (ctx, _request, [packId]) => answer(cancelPack(ctx, packId!), 200);
export const principalBalanceRoute: Endpoint = (ctx, _request, [kid]) => answer(principalBalance(ctx, kid!), 200);
export const redeemerBalanceRoute: Endpoint = (ctx, _request, [kid]) => answer(redeemerBalance(ctx, kid!), 200);
