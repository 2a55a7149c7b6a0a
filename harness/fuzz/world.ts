// The real side of one world of a model run (lanes.ts opens one per lane, under
// a clock it has frozen): fresh state on the target (a new Principal, a stranger
// Principal and new redeemers, provisioned over test control) so that a command
// sequence means the same thing every time it runs, which is what makes
// shrinking against a live server deterministic. The world keeps the keys, the
// signed packs the implementation returned, every message sent (for replays),
// the exchanges (for the crash file) and the script of scenario steps its
// history corresponds to (for the regression scenario).
import { formatTimestamp, newUuid, parseTimestamp, signRequest, toAmount } from '../../profile/index.ts';
import { balancePath } from '../../profile/control.ts';
import { createSigningKey, type AssetDescriptor, type CashPack, type PolicyDocument, type SigningKey } from '../../profile/cashpack/index.ts';
import type { WireRequest } from '../adapters/types.ts';
import type { CommandSpec } from './spec.ts';
import { ExchangeLog, jsonRequest, type FuzzClient, type Reply } from './client.ts';
import type { CauseKind } from './cause.ts';
import { HarnessFault, Mismatch } from './mismatch.ts';
import { assetKey, OperatorModel, type CashpackMessage, type ModelPolicy } from './model.ts';

/** What every model run of a campaign shares. */
export interface FuzzContext {
  readonly client: FuzzClient;
  readonly policyDocument: PolicyDocument;
  readonly policy: ModelPolicy;
  /** The Operator's signing key (/.well-known/cashpack-pubkey.json). */
  readonly operatorKey: Uint8Array;
}

/**
 * The Principal's starting balance: relative to max_amount so both limits can
 * be reached, or of so many digits (10^(digits−1) + 1, an amount no binary
 * floating-point number holds from 17 digits on; at most 78, the largest amount).
 */
export type BalanceChoice = 'twice-max' | 'max' | 'small' | { readonly digits: number };

/** The accounts a world can do without (all but the Principal): reduce.ts leaves out those a finding does not need. */
export const OPTIONAL_ACCOUNTS = ['stranger', 'redeemer', 'redeemer2', 'redeemer_low'] as const;
type OptionalAccount = (typeof OPTIONAL_ACCOUNTS)[number];

export interface RunSetup {
  readonly balance: BalanceChoice;
  /** The Principal's asset: the policy's asset at this index (modulo their number); the first when absent. */
  readonly asset?: number;
  /**
   * When balances are read: after each command unless it says `unread` (absent),
   * or only at `observe` commands (`none`): an effect must then show in the
   * answers of later requests, whether or not anything reads it (PROFILE.md §12).
   */
  readonly observe?: 'none';
  /**
   * Accounts not provisioned: their keys exist, registered nowhere (as
   * `outsider`'s), and the model knows them as such. Absent: every account.
   */
  readonly without?: readonly OptionalAccount[];
}

/** The model side of a run, as fast-check's commands see it. */
export interface FuzzModel {
  readonly operator: OperatorModel;
  /** How many messages a replay command can choose from. */
  sent: number;
  /** True once the campaign's deadline has passed: the remaining commands are skipped. */
  readonly halted: () => boolean;
}

/** A pack as the real side holds it: signed versions and how a scenario names them. */
export interface RealPack {
  readonly packId: string;
  /** Scenario expression of the pack id, e.g. `s3.body.pack_id`. */
  readonly idRef: string;
  readonly first: CashPack;
  readonly firstRef: string;
  /** The signed version the run presents (the last one a scenario can name). */
  known: CashPack;
  knownRef: string;
  /** Scenario expressions of D0 … Dn, parallel to the model's digests. */
  readonly digestRefs: string[];
  /** Key names of the initial bearer and of each new bearer, parallel to the model's bearers. */
  readonly bearerNames: string[];
  /** Every signed version the Operator returned, oldest first, and how the scenario names it. */
  readonly versions: { readonly pack: CashPack; readonly ref: string }[];
}

/** A message sent, so that a replay command can resend it verbatim. */
interface SentMessage {
  readonly message: CashpackMessage;
  readonly request: WireRequest;
  /** Scenario expression of the message, e.g. `s4.sent` or `s4.sent[2]`. */
  readonly sentRef: string;
  /** Scenario expression of the cash-pack the request presented (renew, redeem). */
  readonly packRef?: string;
  /** The key that signed the request at the HTTP layer (redeem), if any. */
  readonly signAs?: string;
}

export type ScriptCheck = Readonly<Record<string, unknown>>;

/** One scenario step (suites/README.md) and the checks the model predicted for it. */
export interface ScriptStep {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly expect: ScriptCheck[];
}

/** The capture of the regression scenario's first step, which freezes the clock: where every clock move is counted from. */
export const FROZEN_AT = 'frozen_at';

/** Key names in the run and in its regression scenario. */
export const KEY = {
  principal: 'principal',
  stranger: 'stranger',
  redeemer: 'redeemer',
  redeemer2: 'redeemer2',
  redeemerLow: 'redeemer_low',
  outsider: 'outsider',
} as const;

export class World {
  readonly keys = new Map<string, SigningKey>();
  readonly packs = new Map<string, RealPack>();
  readonly sent: SentMessage[] = [];
  readonly log = new ExchangeLog();
  readonly script: ScriptStep[] = [];
  /** How far the clock moved since the run froze it. */
  advancedMs = 0;
  /** The commands that ran, as data, in order (an interleave with the order it ran in). */
  readonly executed: CommandSpec[] = [];
  /** Setup values the regression scenario repeats. */
  readonly principalBalance: bigint;
  /** The Principal's asset (RunSetup.asset). */
  readonly principalAsset: AssetDescriptor;
  /** While set, the command running reads no balance (its spec says `unread`, or the run reads none): what it changed is seen later, or never. */
  quiet = false;

  /** Whether a command with this spec reads no balance after it. */
  quietFor(spec: { readonly unread?: true }): boolean {
    return spec.unread === true || this.setup.observe === 'none';
  }
  /** The redeemers provisioned, by key name. */
  readonly redeemerLevels: ReadonlyMap<string, number>;
  /** Accounts of the world left unprovisioned (RunSetup.without). */
  readonly unprovisioned: ReadonlySet<string>;
  /** A pack id no pack has. */
  readonly unknownPackId = newUuid();
  private bearers = 0;
  private captures = 0;
  /** Balance reads sent ahead of their check (readBalancesNow). */
  private early: { readonly redeemers: boolean; readonly replies: Promise<Reply[]> } | undefined;

  private constructor(
    readonly context: FuzzContext,
    readonly setup: RunSetup,
    /** Which of the run's concurrent worlds this is (lanes.ts); 0 when there is one. */
    readonly lane: number,
    balance: bigint,
    levels: Map<string, number>,
  ) {
    this.principalBalance = balance;
    const assets = context.policyDocument.assets;
    this.principalAsset = assets[(setup.asset ?? 0) % assets.length]!;
    const without = new Set<string>(setup.without ?? []);
    this.redeemerLevels = new Map([...levels].filter(([name]) => !without.has(name)));
    // Only accounts the world would have: redeemer_low exists when the required level is above 0.
    this.unprovisioned = new Set([KEY.stranger, ...levels.keys()].filter((name) => without.has(name)));
  }

  /** A new world; nothing is made or sent yet (open does both). */
  static create(context: FuzzContext, setup: RunSetup, lane = 0): World {
    const required = context.policy.requiredIdentityLevel;
    const levels = new Map<string, number>([
      [KEY.redeemer, required],
      [KEY.redeemer2, 3],
      ...(required > 0 ? [[KEY.redeemerLow, required - 1] as [string, number]] : []),
    ]);
    return new World(context, setup, lane, startingBalance(setup.balance, context.policy.maxAmount), levels);
  }

  /**
   * Makes the world's keys and provisions its accounts over test control, with
   * the clock frozen at `now`, and returns its model. Each account's request goes
   * out as soon as its key exists, so the target works while the next key is made.
   */
  async open(now: number, halted: () => boolean): Promise<FuzzModel> {
    const asset = this.principalAsset;
    const provision = (name: string, path: string, body: Record<string, unknown>) => {
      this.keys.set(name, createSigningKey());
      return this.control('POST', path, { public_key: this.jwk(name), ...body });
    };
    // Independent accounts: provisioned together.
    const stranger = !this.unprovisioned.has(KEY.stranger);
    const provisioned = [
      provision(KEY.principal, '/_control/operator/principals', { asset, balance: toAmount(this.principalBalance) }),
      ...(stranger ? [provision(KEY.stranger, '/_control/operator/principals', { asset, balance: '0' })] : []),
      ...[...this.redeemerLevels].map(([name, level]) => provision(name, '/_control/operator/redeemers', { identity_level: level })),
    ];
    for (const name of [KEY.outsider, ...this.unprovisioned]) this.keys.set(name, createSigningKey());
    await Promise.all(provisioned);
    const operator = new OperatorModel(this.context.policy, now);
    operator.addPrincipal(this.kid(KEY.principal), assetKey(asset), this.principalBalance);
    if (stranger) operator.addPrincipal(this.kid(KEY.stranger), assetKey(asset), 0n);
    for (const [name, level] of this.redeemerLevels) operator.addRedeemer(this.kid(name), level);
    return { operator, sent: 0, halted };
  }

  get client(): FuzzClient {
    return this.context.client;
  }

  key(name: string): SigningKey {
    const key = this.keys.get(name);
    if (!key) throw new TypeError(`no key named ${name}`);
    return key;
  }

  jwk(name: string) {
    return this.key(name).jwk;
  }

  kid(name: string): string {
    return this.key(name).jwk.kid;
  }

  /** A new bearer key: b1, b2, ... */
  newBearer(): string {
    const name = `b${++this.bearers}`;
    this.keys.set(name, createSigningKey());
    return name;
  }

  /** Every key the scenario creates with keygen (bearers, the unregistered key and the accounts left unprovisioned). */
  generatedKeys(): string[] {
    return [...this.keys.keys()].filter((n) => /^b\d+$/.test(n) || n === KEY.outsider || this.unprovisioned.has(n));
  }

  /** A new capture name for a scenario step: s1, s2, ... */
  capture(): string {
    return `s${++this.captures}`;
  }

  /** The accounts provisioned in this run that it could do without (all but the Principal). */
  optionalAccounts(): OptionalAccount[] {
    return OPTIONAL_ACCOUNTS.filter((name) => (name === KEY.stranger ? !this.unprovisioned.has(name) : this.redeemerLevels.has(name)));
  }

  /** The redeemers provisioned in this run, by key name. */
  redeemerNames(): string[] {
    return [...this.redeemerLevels.keys()];
  }

  timestamp(ms: number): string {
    return formatTimestamp(ms, 'cashpack');
  }

  /** Sends a request of this world; `logged` false leaves it out of the crash file (a flood's middle). */
  send(request: WireRequest, logged = true): Promise<Reply> {
    return this.client.send(request, logged ? [this.log] : [], this.lane);
  }

  /** A test-control call that must succeed: anything else is a harness fault. */
  control(method: string, path: string, json?: unknown): Promise<unknown> {
    return control(this.client, method, path, json, [this.log], this.lane);
  }

  /** RFC 9421 headers by a named key (PROFILE.md §2.4). */
  httpSignature(method: string, path: string, body: Uint8Array | undefined, keyName: string, createdSeconds: number): Record<string, string> {
    const key = this.key(keyName);
    return { ...signRequest({ method, authority: this.client.authority, path, ...(body !== undefined ? { body } : {}) }, { secretKey: key.secretKey, kid: key.jwk.kid }, createdSeconds) };
  }

  step(fields: Record<string, unknown>, expect: ScriptCheck[] = []): ScriptStep {
    const step = { fields, expect };
    this.script.push(step);
    return step;
  }

  /**
   * Sends the reads of the coming checkBalances now, as soon as the command's
   * last answer is in, so that they travel while that answer is being checked;
   * checkBalances then compares them as if it had sent them itself.
   */
  readBalancesNow(redeemers: boolean): void {
    if (this.quiet) return;
    const replies = this.readBalances(redeemers);
    // Handled here too: a command that fails first never awaits them (settleEarlyReads does).
    replies.catch(() => undefined);
    this.early = { redeemers, replies };
  }

  /** Waits for reads sent early that no check compared (the command failed first), so the run's exchanges are complete. */
  async settleEarlyReads(): Promise<void> {
    const early = this.early;
    this.early = undefined;
    await early?.replies.catch(() => undefined);
  }

  /**
   * The Principal's balance and, with `redeemers`, each redeemer's, in that
   * order. Reads have no effect and the clock is frozen: they go out together.
   */
  readBalances(redeemers: boolean): Promise<Reply[]> {
    const paths = [balancePath('principal', this.kid(KEY.principal)), ...(redeemers ? this.redeemerNames().map((name) => balancePath('redeemer', this.kid(name))) : [])];
    return Promise.all(paths.map((path) => this.send({ method: 'GET', path })));
  }

  /**
   * Reads the balances through test control and compares them with the model;
   * the checks are added to the last scenario step, where a scenario makes them.
   * `by` names the command and the request kind a difference is charged to;
   * both are read only when a balance differs. Nothing is read while the world
   * is quiet (the command's spec says `unread`).
   *
   * With `candidates` (the states some order of concurrent requests leaves, see
   * mix.ts), the reads must match one of them: its index is returned. The
   * scenario then checks only what every state of `scripted` agrees on.
   * `requirement` names the rule each account's read proves: one for all, or
   * one for the Principal's and one for a redeemer's.
   */
  async checkBalances(model: FuzzModel, by: { readonly label: string; readonly op: CauseKind }, requirement: string | { readonly principal: string; readonly redeemer: string }, redeemers: boolean, orders?: { readonly candidates: readonly OperatorModel[]; readonly scripted: readonly OperatorModel[] }): Promise<number> {
    if (this.quiet) return 0;
    const step = this.script.at(-1);
    if (!step) throw new TypeError('a balance check follows a step');
    const early = this.early;
    this.early = undefined;
    if (early && early.redeemers !== redeemers) throw new TypeError('the balance reads sent early cover other accounts than this check');
    const replies = await (early?.replies ?? this.readBalances(redeemers));
    const candidates = orders?.candidates ?? [model.operator];
    const owners: BalanceOwner[] = [{ principal: KEY.principal }, ...(redeemers ? this.redeemerNames().map((name) => ({ redeemer: name })) : [])];
    const ruleOf = (owner: BalanceOwner) => (typeof requirement === 'string' ? requirement : 'principal' in owner ? requirement.principal : requirement.redeemer);
    // A redeemer's balance is in the asset its read names (PROFILE.md §12); the policy's first when it names none.
    const assets = replies.map((reply) => assetOf(reply, this.context.policyDocument.assets[0]!));
    const expect = (m: OperatorModel) => owners.map((owner, i) => this.expectedBalance(m, owner, assets[i]!));
    // The scenario checks each member every scripted state agrees on.
    const scripted = (orders?.scripted ?? candidates).map(expect);
    owners.forEach((owner, i) => {
      const agreed = Object.fromEntries(Object.entries(scripted[0]![i]!).filter(([k, v]) => scripted.every((e) => e[i]![k] === v)));
      if (Object.keys(agreed).length > 0) step.expect.push({ balance: { ...owner, ...agreed }, requirement: ruleOf(owner) });
    });
    const expected = candidates.map(expect);
    const fits = expected.findIndex((e) => e.every((read, i) => balanceDifference(read, replies[i]!) === undefined));
    if (fits >= 0) return fits;
    // Compared in a fixed order, so that a run reports the same difference every time.
    owners.forEach((owner, i) => {
      const reply = replies[i]!;
      const difference = balanceDifference(expected[0]![i]!, reply);
      if (difference === undefined) return;
      const what = 'principal' in owner ? "the Principal's balance" : `the balance of ${owner.redeemer}`;
      const body = reply.body as Record<string, unknown> | undefined;
      // Unlike setup, an error answer here is a finding: state the model says is
      // well-formed (a negative balance, say) made the implementation fail.
      const actual = reply.status !== 200 || !body || typeof body !== 'object' ? { status: reply.status, body: reply.text.slice(0, 300) } : Object.fromEntries(Object.keys(expected[0]![i]!).map((k) => [k, body[k]]));
      const options = [...new Map(expected.map((e) => [JSON.stringify(e[i]), e[i]!])).values()];
      const rule = ruleOf(owner);
      throw new Mismatch({ command: by.label, what, expected: options.length === 1 ? options[0]! : { 'one of': options }, actual, requirement: rule, cause: { requirement: rule, kind: by.op, what, difference } });
    });
    throw new TypeError('a balance read that differs names its member');
  }

  /** What the model says one account's balance read holds. */
  private expectedBalance(m: OperatorModel, owner: BalanceOwner, asset: AssetDescriptor): Readonly<Record<string, string>> {
    if ('principal' in owner) {
      const principal = m.principal(this.kid(owner.principal))!;
      return { available: toAmount(principal.available), locked: toAmount(principal.locked), held: toAmount(principal.held) };
    }
    return { available: toAmount(m.credit(this.kid(owner.redeemer), assetKey(asset))) };
  }

  /** Provisions a known account again (PROFILE.md §12), as the run's setup provisioned it but with a new balance or level. */
  async reprovision(name: string, change: { readonly balance: bigint } | { readonly level: number }): Promise<void> {
    const body = 'balance' in change ? { public_key: this.jwk(name), asset: this.principalAsset, balance: toAmount(change.balance) } : { public_key: this.jwk(name), identity_level: change.level };
    await this.control('POST', 'balance' in change ? '/_control/operator/principals' : '/_control/operator/redeemers', body);
  }
}

/** How a scenario step names the account a balance read is of. */
type BalanceOwner = { readonly principal: string } | { readonly redeemer: string };

/** The asset a balance read names, or `fallback` when it names none. */
function assetOf(reply: Reply, fallback: AssetDescriptor): AssetDescriptor {
  const asset = (reply.body as { asset?: unknown } | undefined)?.asset;
  return asset !== null && typeof asset === 'object' && !Array.isArray(asset) ? (asset as AssetDescriptor) : fallback;
}

/** How a balance read differs from what is expected of it (which members, not by how much: the amounts are the run's own), or undefined. */
function balanceDifference(expected: Readonly<Record<string, string>>, reply: Reply): string | undefined {
  const body = reply.body as Record<string, unknown> | undefined;
  if (reply.status !== 200 || !body || typeof body !== 'object') return `read answered ${reply.status}`;
  const members = Object.entries(expected).flatMap(([k, v]) => (body[k] !== v ? [k] : []));
  return members.length > 0 ? `${members.join(', ')} differ${members.length === 1 ? 's' : ''}` : undefined;
}

/** A balance as the run's setup chooses it (BalanceChoice), from max_amount. */
export function startingBalance(choice: BalanceChoice, max: bigint): bigint {
  if (typeof choice === 'object') return amountOfDigits(choice.digits);
  switch (choice) {
    case 'twice-max': {
      const twice = 2n * max;
      return twice.toString().length <= 78 ? twice : max;
    }
    case 'max':
      return max;
    case 'small':
      return max < 1000n ? max : 1000n;
  }
}

/** 10^(digits−1) + 1, digits from 1 to 78 (PROFILE.md §1: an amount has at most 78 digits). */
function amountOfDigits(digits: number): bigint {
  const d = Math.min(Math.max(Math.trunc(digits), 1), 78);
  return d === 1 ? 1n : 10n ** BigInt(d - 1) + 1n;
}

/**
 * A test-control call that must succeed (anything else is a harness fault),
 * recorded in the logs of the runs it concerns; `lane` undefined for a call
 * that concerns every concurrent world (the clock).
 */
export async function control(client: FuzzClient, method: string, path: string, json: unknown, logs: readonly ExchangeLog[], lane: number | undefined): Promise<unknown> {
  const reply = await client.send(json === undefined ? { method, path } : jsonRequest(method, path, json), logs, lane);
  if (reply.status < 200 || reply.status > 299 || reply.body === undefined) {
    throw new HarnessFault(`test control ${method} ${path} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  }
  return reply.body;
}

/** POST /_control/clock for every world at once; the clock must come back frozen and readable. */
export async function setClock(client: FuzzClient, body: Record<string, unknown>, logs: readonly ExchangeLog[]): Promise<number> {
  const clock = (await control(client, 'POST', '/_control/clock', body, logs, undefined)) as { now?: unknown; frozen?: unknown };
  const now = parseTimestamp(clock.now);
  if (now === undefined || clock.frozen !== true) {
    throw new HarnessFault(`POST /_control/clock ${JSON.stringify(body)} answered ${JSON.stringify(clock).slice(0, 200)}: the fuzzer needs a frozen clock it can read`);
  }
  return now;
}
