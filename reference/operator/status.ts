// GET /v1/cashpack/{pack_id}/status (spec §3.2, §4.2, §5.2; PROFILE.md §2.4, §4.7, §5 status).
// Restricted to the issuing Principal and the Operator (its staff keys): 401, then
// 403, then 404, so that an outsider learns nothing about which packs exist.
import { formatTimestamp } from '../../profile/index.ts';
import type { PackStatus } from '../../profile/cashpack/index.ts';
import { json, problemResponse } from '../http/respond.ts';
import { verifyCaller, type Endpoint, type OperatorContext } from './context.ts';
import { applyExpiry } from './expiry.ts';
import type { PackRecord } from './state.ts';

export const status: Endpoint = (ctx, request, [rawPackId]) => {
  // Mutant op-status-pack-id-decoded-unguarded: the path parameter's escapes undone by a decoder that throws on a malformed one.
  // Stryker disable next-line all: only the op-status-pack-id-decoded-unguarded fault decodes the segment
  const packId = ctx.faults.has('op-status-pack-id-decoded-unguarded') ? decodeURIComponent(rawPackId!) : rawPackId;
  const now = ctx.clock.now();
  // Mutant op-status-open: no caller authentication or authorization at all.
  if (ctx.faults.has('op-status-open')) {
    const open = readStatus(ctx, packId!);
    return open ? json(200, open) : problemResponse('NOT_FOUND', 'unknown pack_id');
  }
  // 401: an HTTP Message Signature by a registered account key, created within the window.
  const caller = verifyCaller(ctx, request, (kid) => ctx.state.accountKey(kid), now);
  if (!caller.ok) return problemResponse('UNAUTHENTICATED', caller.reason);
  // 403: neither the issuing Principal nor the Operator. A pack that does not exist
  // has no issuing Principal, so only the Operator goes on to learn that it is unknown.
  const record = ctx.state.packs.get(packId!);
  // Mutant op-status-role-first-match: the caller's role is the first account its kid names, Principal and redeemer before staff.
  // Mutant op-status-open-to-redeemer: the redeemer the pack was released to let through as a party to it (redeemerKid is set only under that fault).
  // Stryker disable next-line all: only the op-status-role-first-match fault ranks the roles, and only the op-status-open-to-redeemer fault sets redeemerKid
  const staff = ctx.faults.has('op-status-role-first-match') ? !ctx.state.principals.has(caller.kid) && !ctx.state.redeemers.has(caller.kid) && ctx.state.staff.has(caller.kid) : ctx.state.staff.has(caller.kid) || (record?.redeemerKid !== undefined && record.redeemerKid === caller.kid);
  if (!staff && record?.principalKid !== caller.kid) {
    return problemResponse('FORBIDDEN', 'only the issuing Principal and the Operator may read this status');
  }
  // 404.
  if (!record) return problemResponse('NOT_FOUND', 'unknown pack_id');
  applyExpiry(ctx.state, record, now);
  // Mutant op-updated-at-stamped-by-read: the read touches the record as if it changed it.
  if (ctx.faults.has('op-updated-at-stamped-by-read')) record.updatedAtMs = now;
  return json(200, statusOf(ctx, record));
};

/** PROFILE.md §4.7; chain_depth is the length of renewal_chain. */
function statusOf(ctx: OperatorContext, record: PackRecord): PackStatus {
  const { pack } = record;
  return {
    pack_id: pack.pack_id,
    // Mutant op-status-deep-pack-active: a pack three renewals deep or more reads ACTIVE whatever it is.
    status: ctx.faults.has('op-status-deep-pack-active') && pack.renewal_chain.length >= 3 ? 'ACTIVE' : record.status,
    amount: pack.amount,
    asset: pack.asset,
    // Mutant op-status-asset-from-principal: the asset read from the issuing Principal's account as it stands now, not the pack's.
    // Stryker disable next-line all: only the op-status-asset-from-principal fault reads the account's asset
    ...(ctx.faults.has('op-status-asset-from-principal') ? { asset: ctx.state.principals.get(record.principalKid)?.asset ?? pack.asset } : {}),
    expiry: pack.expiry,
    chain_depth: pack.renewal_chain.length,
    chain_digest: pack.chain_digest,
    updated_at: formatTimestamp(record.updatedAtMs, 'cashpack'),
    // Mutant op-status-current-bearer-member: a renewed pack's status says who holds it now, a member §4.7 does not list.
    // Stryker disable next-line all: only the op-status-current-bearer-member fault adds the member
    ...(ctx.faults.has('op-status-current-bearer-member') && pack.renewal_chain.length > 0 ? { current_bearer_kid: pack.current_bearer_pk.kid } : {}),
  };
}

/** The same status without caller authentication, for in-process callers. */
export function readStatus(ctx: OperatorContext, packId: string): PackStatus | undefined {
  const record = ctx.state.packs.get(packId);
  if (!record) return undefined;
  applyExpiry(ctx.state, record, ctx.clock.now());
  return statusOf(ctx, record);
}
