// From the run's --target choice to an opened, reachable target whose test-control
// lease this command holds when it offers one (lease.ts): the run drives it; its
// config is what opens it again elsewhere (the fuzzer's operator alone).
import { profileNoticeOf } from '../target/control.ts';
import { discoverFacts, type TargetFacts } from '../target/facts.ts';
import { loadTargetFile } from '../target/load.ts';
import { preflight } from '../target/preflight.ts';
import { embeddedTarget, openTarget, targetFromUrl, type OpenOptions, type Target } from '../target/target.ts';
import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors.ts';
import { RetrievalStub } from '../stub/retrieval-stub.ts';
import type { TargetDescription } from '../report/model.ts';
import { targetNotes } from '../report/wording.ts';
import { holdLease, leaseHolder } from './lease.ts';
import type { TargetConfig } from '../target/config.ts';
import type { Terminal } from './terminal.ts';

export type TargetChoice =
  | { readonly kind: 'embedded' }
  | { readonly kind: 'url'; readonly url: string; readonly caFile?: string; readonly insecure: boolean; readonly controlToken?: string }
  /** `env`: where the file's control.token_env names are read from (the command's environment; the process's when absent). */
  | { readonly kind: 'file'; readonly path: string; readonly env?: Readonly<Record<string, string | undefined>> };

export interface ResolvedTarget {
  readonly target: Target;
  /** What the target publishes about itself, read once when it opened (target/facts.ts). */
  readonly facts: TargetFacts;
  readonly config: TargetConfig;
  readonly description: TargetDescription;
  /** The embedded reference only: the same target on a twin of the reference (Target.twin), ready as this one is, closed with it. */
  readonly twin?: () => Promise<ResolvedTarget>;
  close(): Promise<void>;
}

interface ResolveOptions {
  /** Deadline of one request; also bounds the preflight probes (default 3 000 ms) when given. */
  readonly requestTimeoutMs?: number;
  /** Extra hosts the reference paying application may retrieve from (OpenOptions.allowHosts). */
  readonly allowHosts?: readonly string[];
  /** The target file, already loaded (a file choice is otherwise loaded here). */
  readonly config?: TargetConfig;
  /** The command, as the lease names its holder ("run", "fuzz", ...); default "run". */
  readonly command?: string;
  /** Wait up to this long for a test-control lease another client holds (--lease-wait). */
  readonly leaseWaitSeconds?: number;
  /** Stops that wait (an interrupt). */
  readonly signal?: AbortSignal;
  /** Start the harness's retrieval stub and have the paying application trust it (scenarios that use it, the paying-app fuzzer). */
  readonly stub?: boolean;
}

export async function resolveTarget(choice: TargetChoice, terminal: Terminal, options: ResolveOptions = {}): Promise<ResolvedTarget> {
  // Spec §5.1.4, PROFILE.md §8.1: every role is served over TLS. Said first; the run goes on, and what needs TLS fails.
  if (choice.kind === 'url' && /^http:\/\//i.test(choice.url)) {
    terminal.line(`warning: --target ${choice.url} is plaintext http: use https (the spec serves every role over TLS), e.g. --target ${choice.url.replace(/^http:/i, 'https:')} --ca FILE`);
  }
  const stub = options.stub ? await RetrievalStub.start() : undefined;
  let opened: Target;
  try {
    opened = await open(choice, { ...options, ...(stub ? { stubServer: stub } : {}) });
  } catch (error) {
    await stub?.close();
    throw error;
  }
  let resolved: ResolvedTarget;
  try {
    resolved = await ready(opened, terminal, options, true);
  } catch (error) {
    await stub?.close();
    throw error;
  }
  const { twin } = opened;
  return {
    ...resolved,
    close: async () => {
      await resolved.close();
      await stub?.close();
    },
    ...(twin !== undefined ? { twin: async () => ready(await twin(), terminal, options, false) } : {}),
  };
}

/**
 * An opened target made ready for a run: reachable, its lease held, its facts
 * read; closed (and its lease given back) on any failure. `say`: whether its
 * warnings are said (a twin's are its reference's, said once).
 */
async function ready(opened: Target, terminal: Terminal, options: ResolveOptions, say: boolean): Promise<ResolvedTarget> {
  let target: Target;
  try {
    // Fails within seconds when a role does not answer (HARNESS_TARGET_UNREACHABLE).
    await preflight(opened, options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {});
    // A target another client holds is HARNESS_TARGET_BUSY, unless told to wait.
    target = await holdLease(opened, {
      holder: leaseHolder(options.command ?? 'run'),
      say: (line) => terminal.line(`warning: ${line}`),
      ...(options.leaseWaitSeconds !== undefined ? { waitSeconds: options.leaseWaitSeconds } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {}),
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
  if (say && target.description.roles && Object.values(target.description.roles).some((r) => r?.tls === 'insecure')) {
    terminal.line('warning: TLS verification is off for this target (--insecure); the report records it');
  }
  // The target's facts, read once: every test and the report take them from here.
  const timeoutMs = options.requestTimeoutMs ?? 3000;
  const found = await discoverFacts(target, timeoutMs)
    .then(async (facts) => ({ facts, notice: await profileNoticeOf(target, timeoutMs, facts) }))
    .catch(async (error: unknown) => {
      await target.close();
      throw error;
    });
  const { facts, notice } = found;
  const description = { ...target.description, ...(notice !== undefined ? { profile_notice: notice } : {}), ...(facts.operator ? { facts } : {}) };
  if (say) for (const line of targetNotes(description)) terminal.line(`warning: ${line}`);
  return { target, config: target.config, description, facts, close: () => target.close() };
}

async function open(choice: TargetChoice, options: ResolveOptions & { readonly stubServer?: RetrievalStub }): Promise<Target> {
  const opening: OpenOptions = {
    ...(options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs, discoveryTimeoutMs: Math.min(options.requestTimeoutMs, 3000) } : {}),
    ...(options.allowHosts !== undefined ? { allowHosts: options.allowHosts } : {}),
    ...(options.stubServer !== undefined ? { stub: options.stubServer } : {}),
  };
  switch (choice.kind) {
    case 'embedded':
      return embeddedTarget(opening);
    case 'url':
      return targetFromUrl(choice.url, { ...opening, insecure: choice.insecure, ...(choice.caFile !== undefined ? { ca: readCa(choice.caFile), caFile: choice.caFile } : {}), ...(choice.controlToken !== undefined ? { controlToken: choice.controlToken } : {}) });
    case 'file':
      return openTarget(options.config ?? loadTargetFile(choice.path, choice.env), opening);
  }
}

/**
 * What the report says about a target that could not be opened: its roles as
 * configured, nothing discovered, no secret (describeTarget's rules).
 */
export function describeChoice(choice: TargetChoice, config?: TargetConfig): TargetDescription {
  switch (choice.kind) {
    case 'embedded':
      return { name: 'embedded reference', embedded: true, roles: {} };
    case 'url': {
      let host = choice.url;
      try {
        host = new URL(choice.url).host;
      } catch {
        // Shown as given.
      }
      const role = { adapter: 'http', base_url: choice.url.replace(/\/$/, ''), tls: /^http:/i.test(choice.url) ? 'none' : choice.insecure ? 'insecure' : 'verified', capabilities: [] } as const;
      return { name: host, embedded: false, roles: { payee: role, operator: role } };
    }
    case 'file': {
      if (!config) return { name: choice.path, embedded: false, roles: {} };
      const roles: Record<string, RoleDescription> = {};
      if (config.payee) roles['payee'] = configured(config.payee);
      if (config.operator) roles['operator'] = configured(config.operator);
      if (config.payingApp) roles['paying-app'] = { adapter: config.payingApp.adapter, tls: 'in-process', capabilities: [] };
      return { name: config.name, embedded: false, roles };
    }
  }
}

type RoleDescription = NonNullable<TargetDescription['roles']['payee']>;

function configured(role: NonNullable<TargetConfig['payee']>): RoleDescription {
  const capabilities = role.capabilities === 'auto' ? [] : [...role.capabilities].sort();
  if (role.adapter !== 'http') return { adapter: role.adapter, tls: 'in-process', capabilities };
  const tls = /^http:/i.test(role.baseUrl) ? 'none' : role.insecure ? 'insecure' : 'verified';
  return { adapter: 'http', base_url: role.baseUrl.replace(/\/$/, ''), tls, capabilities };
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `cannot read --ca ${file}: ${(error as Error).message}`, 'give the PEM file of the CA that issued the target certificate');
  }
}
