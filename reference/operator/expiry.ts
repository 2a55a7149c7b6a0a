// Lazy expiry (PROFILE.md §5.1, spec §1.2, §3.2): an ACTIVE pack whose expiry is at
// or before the clock is EXPIRED and its amount is back in the Principal's
// available funds. It is applied whenever a pack or a balance is read, and its
// observable effect is as if it happened at the expiry instant.
import { endPack } from './transitions.ts';
import type { OperatorState, PackRecord, PrincipalAccount } from './state.ts';

export function applyExpiry(state: OperatorState, record: PackRecord, nowMs: number): void {
  // Mutant op-expiry-one-second-late: the pack expires a second after its expiry instant.
  const expiryMs = state.faults.has('op-expiry-one-second-late') ? record.expiryMs + 1000 : record.expiryMs;
  // Mutant op-expired-stamped-when-applied: updated_at is the moment the lazy expiry is applied, not the expiry instant.
  // Mutant op-expiry-clock-rounded: the clock read to the nearest second, so a pack expires from half a second before its expiry.
  // Stryker disable next-line all: only the op-expiry-clock-rounded fault rounds the clock
  const clockMs = state.faults.has('op-expiry-clock-rounded') ? Math.round(nowMs / 1000) * 1000 : nowMs;
  if (record.status === 'ACTIVE' && expiryMs <= clockMs) endPack(state, record, { status: 'EXPIRED' }, state.faults.has('op-expired-stamped-when-applied') ? nowMs : expiryMs);
  // Mutant op-expired-pack-reopened-on-clock-back: expiry taken as a function of the clock, so a clock set back before the expiry undoes it while the funds are still there.
  // Stryker disable next-line all: only the op-expired-pack-reopened-on-clock-back fault undoes an expiry
  else if (state.faults.has('op-expired-pack-reopened-on-clock-back') && record.status === 'EXPIRED' && expiryMs > clockMs) reopenPack(state, record);
}

/** Mutant op-expired-pack-reopened-on-clock-back: the amount back from available to locked, the pack ACTIVE again. */
// Stryker disable all: only the op-expired-pack-reopened-on-clock-back fault calls this function
function reopenPack(state: OperatorState, record: PackRecord): void {
  const principal = state.principals.get(record.principalKid)!;
  if (principal.available < record.amount) return;
  principal.available -= record.amount;
  principal.locked += record.amount;
  principal.activePacks.add(record.pack.pack_id);
  record.status = 'ACTIVE';
}
// Stryker restore all

/** Before a Principal's balance is read: every one of its packs that has expired. */
export function applyPrincipalExpiries(state: OperatorState, principal: PrincipalAccount, nowMs: number): void {
  for (const packId of [...principal.activePacks]) {
    const record = state.packs.get(packId)!;
    // Mutant op-expiry-sweep-in-issue-order: the sweep stops at the first pack still running, as if packs expired in the order they were issued.
    if (state.faults.has('op-expiry-sweep-in-issue-order') && record.expiryMs > nowMs) break;
    applyExpiry(state, record, nowMs);
  }
}

/**
 * Mutant op-expiry-timer-overflow: the pack expired by a timer set for its
 * remaining lifetime on the Operator's clock, without a look at the clock when
 * it fires. A delay past 2^31 - 1 ms (about 24.86 days) is taken by Node as
 * 1 ms: a pack issued for longer expires at once.
 */
// Stryker disable all: only the op-expiry-timer-overflow fault calls this function
export function scheduleExpiry(state: OperatorState, record: PackRecord, nowMs: number): void {
  const timer = setTimeout(() => {
    if (record.status === 'ACTIVE') endPack(state, record, { status: 'EXPIRED' }, record.expiryMs);
  }, record.expiryMs - nowMs);
  timer.unref();
}
// Stryker restore all
