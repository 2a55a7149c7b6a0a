// Holding the target's test-control lease (PROFILE.md §12) for as long as a
// command drives it: every command that moves a target's clock (run, certify,
// fuzz, replay, vectors verify, selftest) acquires it when the target offers it,
// renews it on a timer that never keeps the process alive, and releases it when
// the command ends: at the end, on an error, and on Ctrl-C (the target is
// closed then too). A command killed outright leaves it to end with its TTL.
//
// A lease another client holds is a harness error (HARNESS_TARGET_BUSY, exit 2,
// nothing judged) naming the holder and when its lease ends, unless the
// command was told to wait for it (--lease-wait). A target that lists the
// capability but answers otherwise than the profile says is run without one,
// saying so: the clock-move detection (scenarios/clock-watch.ts) still guards
// the verdict.
import { hostname } from 'node:os';
import { HarnessError } from '../errors.ts';
import { TransportError, type HttpRole } from '../adapters/types.ts';
import type { HttpRoleConfig } from '../target/config.ts';
import { guard } from '../target/preflight.ts';
import { acquireLease, releaseLease, renewLease, withLease, type LeaseAnswer, type LeaseGrant } from '../target/lease.ts';
import type { Target } from '../target/target.ts';

interface LeaseOptions {
  /** How the target names us to the others: the command, its process and its host (leaseHolder). */
  readonly holder: string;
  /** Wait up to this long for a lease another client holds (--lease-wait); without it a busy target fails at once. */
  readonly waitSeconds?: number;
  /** Hears what happens that the user should know: a wait, a lease lost, a lease the target would not grant. */
  readonly say?: (line: string) => void;
  /** Stops a wait (an interrupt). */
  readonly signal?: AbortSignal;
  /** Deadline of one lease request; default 5 000 ms. */
  readonly timeoutMs?: number;
  /** The lease's TTL, its renewal period and the wait's polling period; the defaults are LEASE_TIMING. */
  readonly timing?: Partial<LeaseTiming>;
}

interface LeaseTiming {
  readonly ttlSeconds: number;
  readonly renewEveryMs: number;
  readonly pollEveryMs: number;
}

/** A lease of 30 s renewed every 10 s survives two lost renewals; a waiting command asks once a second. */
const LEASE_TIMING: LeaseTiming = { ttlSeconds: 30, renewEveryMs: 10_000, pollEveryMs: 1_000 };

/** "cpr-conformance run (pid 4242 on ci-7)": who holds a lease, as another client is told. */
export function leaseHolder(command: string): string {
  return `cpr-conformance ${command} (pid ${process.pid} on ${hostname()})`;
}

type Roles = { readonly payee?: HttpRole; readonly operator?: HttpRole };

interface HeldLeases {
  /** The roles, each carrying the lease of its implementation on test-control requests. */
  readonly roles: Roles;
  /** The lease id each role's requests carry, by role name. */
  readonly ids: { readonly payee?: string; readonly operator?: string };
  release(): Promise<void>;
}

/**
 * Acquires a lease on each implementation behind `roles` that offers one (payee
 * and operator may be one implementation, behind one role or two), then keeps
 * it until release(). On any failure what was acquired is released again.
 */
export async function leaseRoles(roles: Roles, offers: (role: 'payee' | 'operator') => boolean, options: LeaseOptions): Promise<HeldLeases> {
  const timing = { ...LEASE_TIMING, ...options.timing };
  const timeoutMs = options.timeoutMs ?? 5000;
  const grants: { role: HttpRole; grant: LeaseGrant; lost?: true }[] = [];
  const release = () => Promise.allSettled(grants.map(({ role, grant }) => releaseLease(role, grant.id, timeoutMs))).then(() => undefined);
  const ids: { payee?: string; operator?: string } = {};
  try {
    for (const name of ['payee', 'operator'] as const) {
      const role = roles[name];
      if (!role || !offers(name)) continue;
      // A role that gives no answer while its lease is taken is unreachable, as preflight says it.
      const grant = await guard(name, role, async () => (await sameImplementation(role, grants, timing.ttlSeconds, timeoutMs)) ?? (await acquire(role, name, options, timing, timeoutMs)));
      if (grant === undefined) continue;
      if (!grants.some((g) => g.grant.id === grant.id)) grants.push({ role, grant });
      ids[name] = grant.id;
    }
  } catch (error) {
    await release();
    throw error;
  }
  if (grants.length === 0) return { roles, ids, release: async () => undefined };
  const timer = setInterval(() => void renewAll(), timing.renewEveryMs);
  timer.unref();
  let renewing = false;
  async function renewAll(): Promise<void> {
    if (renewing) return;
    renewing = true;
    try {
      for (const held of grants.filter((g) => !g.lost)) {
        const answer = await renewLease(held.role, held.grant.id, timing.ttlSeconds, timeoutMs).catch((error: unknown) => {
          if (error instanceof TransportError) return undefined; // no answer: the run finds out on its own
          throw error;
        });
        if (answer === undefined || answer.kind === 'granted') continue;
        held.lost = true;
        options.say?.(`the test-control lease on ${where(held.role)} was lost (${answer.kind === 'busy' ? `now held by "${answer.holder}" until ${answer.expiresAt}` : answer.what}); clock moves the harness did not make are still noticed`);
      }
    } finally {
      renewing = false;
    }
  }
  // One role behind both names stays one role.
  const wrapped = new Map<HttpRole, HttpRole>();
  const wrap = (name: 'payee' | 'operator') => {
    const role = roles[name];
    const id = ids[name];
    if (!role || id === undefined) return role;
    if (!wrapped.has(role)) wrapped.set(role, withLease(role, id));
    return wrapped.get(role);
  };
  const [payee, operator] = [wrap('payee'), wrap('operator')];
  const leased: Roles = { ...(payee ? { payee } : {}), ...(operator ? { operator } : {}) };
  let released: Promise<void> | undefined;
  return {
    roles: leased,
    ids,
    release: () =>
      (released ??= (async () => {
        clearInterval(timer);
        await release();
      })()),
  };
}

/**
 * The target with its lease held: its payee and operator carry the lease on
 * test control, its config too (so that a role opened again from it does), and
 * closing it releases the lease first.
 */
export async function holdLease(target: Target, options: LeaseOptions): Promise<Target> {
  const held = await leaseRoles(target, (name) => target.capabilities[name].has('lease'), options);
  if (held.ids.payee === undefined && held.ids.operator === undefined) return target;
  const config = (role: HttpRoleConfig | undefined, id: string | undefined) => (role && id !== undefined ? { ...role, controlLease: id } : role);
  const payee = config(target.config.payee, held.ids.payee);
  const operator = config(target.config.operator, held.ids.operator);
  let closing: Promise<void> | undefined;
  return {
    ...target,
    ...held.roles,
    config: { ...target.config, ...(payee ? { payee } : {}), ...(operator ? { operator } : {}) },
    close: () =>
      (closing ??= (async () => {
        await held.release();
        await target.close();
      })()),
  };
}

/** The lease this role's implementation already granted us, when it is one we hold (a second role of the same implementation). */
async function sameImplementation(role: HttpRole, grants: readonly { role: HttpRole; grant: LeaseGrant }[], ttlSeconds: number, timeoutMs: number): Promise<LeaseGrant | undefined> {
  for (const { role: other, grant } of grants) {
    if (other === role) return grant;
    if ((await renewLease(role, grant.id, ttlSeconds, timeoutMs)).kind === 'granted') return grant;
  }
  return undefined;
}

/** Acquires, waiting for another holder when allowed (polling, bounded by a deadline and a count). */
async function acquire(role: HttpRole, name: string, options: LeaseOptions, timing: LeaseTiming, timeoutMs: number): Promise<LeaseGrant | undefined> {
  const waitMs = (options.waitSeconds ?? 0) * 1000;
  const deadline = Date.now() + waitMs;
  const polls = Math.ceil(waitMs / timing.pollEveryMs) + 1;
  for (let poll = 1; ; poll++) {
    const answer: LeaseAnswer = await acquireLease(role, options.holder, timing.ttlSeconds, timeoutMs);
    if (answer.kind === 'granted') return answer.grant;
    if (answer.kind === 'odd') {
      options.say?.(`the ${name} lists the lease capability, but ${answer.what}: running without a lease; clock moves the harness did not make are still noticed`);
      return undefined;
    }
    const left = deadline - Date.now();
    if (poll >= polls || left <= 0 || options.signal?.aborted) {
      const waited = waitMs > 0 ? ` (waited ${options.waitSeconds} s${options.signal?.aborted ? ', then was interrupted' : ''})` : '';
      throw new HarnessError('HARNESS_TARGET_BUSY', `the test control of ${where(role)} is leased to "${answer.holder}" until ${answer.expiresAt}${waited}`);
    }
    if (poll === 1) options.say?.(`the test control of ${where(role)} is leased to "${answer.holder}" until ${answer.expiresAt}: waiting up to ${options.waitSeconds} s for it (--lease-wait)`);
    await pause(Math.min(timing.pollEveryMs, left), options.signal);
  }
}

function where(role: HttpRole): string {
  return role.baseUrl ?? role.description;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
