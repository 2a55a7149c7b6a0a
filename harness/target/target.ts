// The runtime target: one adapter per role, the test-control capabilities each
// HTTP role offers, the credentials from the target file, and a description for
// the report with every secret left out (control tokens, key material and
// environment values never appear in it).
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHttpRole } from '../adapters/http.ts';
import { loadModuleRole, moduleRole, type CreateRole, type HttpRoleName } from '../adapters/module.ts';
import { spawnProcessRole } from '../adapters/process.ts';
import { TransportError, type HttpRole, type PayingAppRole } from '../adapters/types.ts';
import { HarnessError } from '../errors.ts';
import type { Capability } from '../../profile/control.ts';
import type { TargetDescription } from '../report/model.ts';
import { checkAllowedHosts, type HostPattern } from '../../reference/paying-app/hosts.ts';
import type { ReferenceOptions, RunningReference } from '../../reference/start.ts';
import type { AppRoleConfig, HttpRoleConfig, RoleCredentials, TargetConfig } from './config.ts';
import { RetrievalStub } from '../stub/retrieval-stub.ts';
import { discoverCapabilities, discoverPlaintextUrl, withControlToken, type Discovery } from './control.ts';
import { withLease } from './lease.ts';
import { EMBEDDED_REFERENCE_OPTIONS, startReferenceThread, type ThreadedReference } from './reference-thread.ts';
import { guard } from './preflight.ts';

/** The reference as a module role (the embedded paying application). */
export const REFERENCE_ADAPTER = fileURLToPath(new URL('../../reference/adapter.ts', import.meta.url));

export interface Target {
  readonly name: string;
  readonly payee?: HttpRole;
  readonly operator?: HttpRole;
  readonly payingApp?: PayingAppRole;
  readonly capabilities: { readonly payee: ReadonlySet<Capability>; readonly operator: ReadonlySet<Capability> };
  /** Why a role's discovered capabilities are none when its answer was odd (an error status, a malformed list). */
  readonly discoveryNotes?: { readonly payee?: string; readonly operator?: string };
  /** Keys from the target file. Secret: never in a report. */
  readonly credentials: { readonly payee: RoleCredentials; readonly operator: RoleCredentials };
  /** For the report: secrets redacted. */
  readonly description: TargetDescription;
  /** True when the harness started the reference itself. */
  readonly embedded: boolean;
  /**
   * The hosts the harness's own paying application (the reference) follows a
   * delivery URI to (host-guard.ts); absent when the paying application is
   * another, which is judged by what it does.
   */
  readonly hostGuard?: readonly HostPattern[];
  /** The harness's retrieval stub, when the paying application was told to trust it (OpenOptions.stub). */
  readonly stub?: RetrievalStub;
  /**
   * A config that opens this same target again elsewhere (a test worker, say):
   * capabilities resolved to explicit lists. Holds secrets, like the file it came from.
   */
  readonly config: TargetConfig;
  /**
   * The embedded reference started with `recordSwitches`: the fault switches
   * (reference/mutants.ts) its roles consulted since the last call, sorted.
   */
  readonly switchesConsulted?: () => Promise<readonly string[]>;
  /**
   * The embedded reference only: opens the same target again on a twin of the
   * reference (same options and thread, its own ports, state and clock), closed
   * with this one. The tests that move the clock run on it, beside the others.
   */
  readonly twin?: () => Promise<Target>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Deadline of one adapter call; default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Deadline of capability discovery; default 3 000 ms. */
  readonly discoveryTimeoutMs?: number;
  /**
   * Hosts (`host` or `host:port`) the reference paying application may retrieve
   * token URIs from besides the target's own (`--allow-host`). Without them it
   * follows an `endpoint` only to the hosts of the target's HTTP roles.
   */
  readonly allowHosts?: readonly string[];
  /**
   * The harness's retrieval stub (harness/stub/): the paying application is
   * told to trust its CA besides its own, and the reference application may
   * retrieve from its hosts. Started and closed by the caller.
   */
  readonly stub?: RetrievalStub;
}

type RoleEntry = { readonly adapter: string; readonly base_url?: string; readonly tls: HttpRole['tls']; readonly capabilities: readonly string[]; readonly capabilities_note?: string };

/** Starts every role of a loaded target file; on any failure, what was started is closed again. */
export async function openTarget(config: TargetConfig, options: OpenOptions = {}): Promise<Target> {
  const opened: { close(): Promise<void> }[] = [];
  try {
    const payee = config.payee && (await openHttpRole('payee', config.payee, options));
    if (payee) opened.push(payee);
    const operator = config.operator && (await openHttpRole('operator', config.operator, options));
    if (operator) opened.push(operator);
    const trusting = config.payingApp && options.stub ? trustingStub(config.payingApp, options.stub) : undefined;
    if (trusting) opened.push(trusting);
    const appConfig = config.payingApp && withAllowedHosts(trusting?.config ?? config.payingApp, targetHosts(config), [...(options.allowHosts ?? []), ...(options.stub?.hosts ?? [])]);
    const payingApp = appConfig && (await openAppRole(appConfig, options));
    if (payingApp) opened.push(payingApp);
    const hostGuard = appConfig && guardOf(appConfig);
    const discovery = options.discoveryTimeoutMs ?? 3000;
    const [payeeFound, operatorFound] = await Promise.all([
      capabilitiesOf('payee', payee, config.payee, discovery),
      capabilitiesOf('operator', operator, config.operator, discovery),
    ]);
    const [payeeCaps, operatorCaps] = [payeeFound.capabilities, operatorFound.capabilities];
    const discoveryNotes = {
      ...(payeeFound.note !== undefined ? { payee: payeeFound.note } : {}),
      ...(operatorFound.note !== undefined ? { operator: operatorFound.note } : {}),
    };
    return assemble({
      name: config.name,
      embedded: false,
      config: {
        ...config,
        ...(config.payee ? { payee: { ...config.payee, capabilities: [...payeeCaps] } } : {}),
        ...(config.operator ? { operator: { ...config.operator, capabilities: [...operatorCaps] } } : {}),
        ...(appConfig ? { payingApp: appConfig } : {}),
      },
      ...(payee ? { payee } : {}),
      ...(operator ? { operator } : {}),
      ...(payingApp ? { payingApp } : {}),
      ...(hostGuard ? { hostGuard } : {}),
      ...(payingApp && options.stub ? { stub: options.stub } : {}),
      capabilities: { payee: payeeCaps, operator: operatorCaps },
      ...(Object.keys(discoveryNotes).length > 0 ? { discoveryNotes } : {}),
      credentials: { payee: config.payee?.credentials ?? {}, operator: config.operator?.credentials ?? {} },
      close: () => closeAll(opened),
    });
  } catch (error) {
    await closeAll(opened);
    throw error;
  }
}

/**
 * `--target URL`: the http adapter on payee and operator at that URL (one pool),
 * capabilities discovered, and the payee's plaintext URL taken from
 * GET /_control/payee/config when it offers one.
 */
interface UrlTargetOptions extends OpenOptions {
  /** PEM of the CA to trust. */
  readonly ca?: string;
  /** A file holding it (`--ca FILE`); read here, a USAGE_ERROR when unreadable. */
  readonly caFile?: string;
  readonly insecure?: boolean;
  readonly controlToken?: string;
}

export async function targetFromUrl(url: string, given: UrlTargetOptions = {}): Promise<Target> {
  const options = given.caFile !== undefined && given.ca === undefined ? { ...given, ca: readCaFile(given.caFile) } : given;
  const discovery = options.discoveryTimeoutMs ?? 3000;
  const make = (plaintextBaseUrl?: string) => {
    let role: HttpRole;
    try {
      role = createHttpRole({
        baseUrl: url,
        ...(plaintextBaseUrl !== undefined ? { plaintextBaseUrl } : {}),
        ...(options.ca !== undefined ? { ca: options.ca } : {}),
        ...(options.insecure ? { insecure: true } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      });
    } catch (error) {
      throw new HarnessError('USAGE_ERROR', `--target ${url}: ${(error as Error).message}`, 'give the implementation\'s absolute base URL, e.g. https://127.0.0.1:8443');
    }
    return options.controlToken ? withControlToken(role, options.controlToken) : role;
  };
  let role = make();
  // One URL for both roles: a message about it names both (a fuzz of the Operator meets it too).
  const both = 'payee and operator';
  try {
    const { capabilities, note } = await guard(both, role, () => discoverCapabilities(role, discovery));
    const plaintext = capabilities.has('provision') ? await guard(both, role, () => discoverPlaintextUrl(role, discovery)) : undefined;
    if (plaintext !== undefined) {
      await role.close();
      role = make(plaintext);
    }
    const shared = role;
    const http: HttpRoleConfig = {
      adapter: 'http',
      baseUrl: shared.baseUrl ?? url,
      ...(plaintext !== undefined ? { plaintextBaseUrl: plaintext } : {}),
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
      insecure: options.insecure === true,
      settings: {},
      ...(options.controlToken ? { controlToken: options.controlToken } : {}),
      capabilities: [...capabilities],
      credentials: {},
    };
    return assemble({
      name: new URL(url).host,
      embedded: false,
      config: { name: new URL(url).host, payee: http, operator: http },
      payee: shared,
      operator: shared,
      capabilities: { payee: capabilities, operator: capabilities },
      ...(note !== undefined ? { discoveryNotes: { payee: note, operator: note } } : {}),
      credentials: { payee: {}, operator: {} },
      close: () => shared.close(),
    });
  } catch (error) {
    await role.close();
    throw error;
  }
}

/** Where the embedded reference runs: a worker thread of its own (the default), or the harness's thread. */
type ReferenceThread = 'own' | 'harness';

/**
 * No target: the reference on loopback, trusted through its own CA (a real trust
 * decision, never insecure), with the reference paying application on the
 * reference's clock, served from the reference's thread (in-process with
 * `thread: 'harness'`). The reference serves from a thread of its own
 * (reference-thread.ts), so its work does not queue behind the harness's;
 * `thread: 'harness'` keeps it in this thread, for mutation testing, whose
 * instrumentation of reference/ lives in this thread's globals.
 */
export async function embeddedTarget(options: EmbeddedOptions = {}): Promise<Target> {
  const referenceOptions: ReferenceOptions = { ...EMBEDDED_REFERENCE_OPTIONS, ...options.reference };
  if (options.thread === 'harness') {
    const ref = inThisThread(await (await import('../../reference/start.ts')).startReference(referenceOptions));
    return onReference(ref, options, () => ref.close());
  }
  const ref = await startReferenceThread(referenceOptions);
  // The twin shares the thread, the stub and the switches' record; it is closed with the reference.
  const twin = async (stub: RetrievalStub | undefined): Promise<Target> => {
    const { switchesConsulted: _, ...target } = await onReference(await ref.twin(), { ...options, ...(stub !== undefined ? { stub } : {}) }, async () => undefined);
    return target;
  };
  return onReference(ref, options, () => ref.close(), twin);
}

type EmbeddedOptions = { readonly reference?: ReferenceOptions; readonly thread?: ReferenceThread } & OpenOptions;

/** The facts of a reference started, in its own thread or this one; `takeSwitches` only where the switches are recorded. */
type StartedReference = Omit<ThreadedReference, 'threadId' | 'openPayingApp' | 'twin' | 'takeSwitches' | 'close'> & Partial<Pick<ThreadedReference, 'openPayingApp' | 'takeSwitches'>>;

/** The embedded target on a started reference, closed by `closeReference`; `twin` opens another on a twin of it. */
async function onReference(ref: StartedReference, options: EmbeddedOptions, closeReference: () => Promise<void>, twin?: (stub: RetrievalStub | undefined) => Promise<Target>): Promise<Target> {
  const opened: { close(): Promise<void> }[] = [];
  try {
    // The reference's paying application always trusts a retrieval stub (its own unless given one):
    // it is the harness's own application, so the scenarios that serve from the stub need no option.
    const stub = options.stub ?? (await RetrievalStub.start());
    if (options.stub === undefined) opened.push(stub);
    const httpRole = createHttpRole({
      baseUrl: ref.url,
      ...(ref.plaintextUrl !== undefined ? { plaintextBaseUrl: ref.plaintextUrl } : {}),
      ca: ref.ca,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    const role = options.reference?.controlToken !== undefined ? withControlToken(httpRole, options.reference.controlToken) : httpRole;
    opened.push(role);
    const token = options.reference?.controlToken;
    // The paying app reads the reference's one clock (PROFILE.md §12) where the
    // reference shares it in this process's memory, not over test control.
    // A mutant switched on in the reference is switched on in its paying app too.
    // It follows token URIs to the reference's own host only, unless told otherwise (--allow-host).
    const appSettings = {
      clock_shared: ref.clock,
      allowed_hosts: [...new Set([new URL(ref.url).host, ...(options.allowHosts ?? []), ...stub.hosts])],
      ...(token !== undefined ? { control_token: token } : {}),
      ...(ref.mutant !== undefined ? { mutant: ref.mutant } : {}),
      ...(options.reference?.recordSwitches === true ? { record_switches: true } : {}),
    };
    const appCa = `${ref.ca}\n${stub.ca}`;
    // Served from the reference's thread when it has one: its work is not the harness's thread's.
    const { openPayingApp } = ref;
    // The reference's modules are loaded in this thread only when it serves from here (their loading is the thread's work otherwise).
    const factory: CreateRole = openPayingApp ?? ((await import('../../reference/adapter.ts')).createRole as CreateRole);
    const payingApp = (await moduleRole(factory, {
      role: 'paying-app',
      description: 'reference/adapter.ts',
      settings: appSettings,
      ca: appCa,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    })) as PayingAppRole;
    opened.push(payingApp);
    const { capabilities } = await guard('payee', role, () => discoverCapabilities(role, options.discoveryTimeoutMs ?? 3000));
    const http: HttpRoleConfig = {
      adapter: 'http',
      baseUrl: ref.url,
      ...(ref.plaintextUrl !== undefined ? { plaintextBaseUrl: ref.plaintextUrl } : {}),
      ca: ref.ca,
      insecure: false,
      settings: {},
      ...(token !== undefined ? { controlToken: token } : {}),
      capabilities: [...capabilities],
      credentials: {},
    };
    return assemble({
      name: 'embedded reference',
      embedded: true,
      config: {
        name: 'embedded reference',
        payee: http,
        operator: http,
        payingApp: { adapter: 'module', module: REFERENCE_ADAPTER, settings: appSettings, ca: appCa },
      },
      payee: role,
      operator: role,
      payingApp,
      hostGuard: checkAllowedHosts(appSettings.allowed_hosts),
      stub,
      capabilities: { payee: capabilities, operator: capabilities },
      credentials: { payee: {}, operator: {} },
      ...(options.reference?.recordSwitches === true && ref.takeSwitches !== undefined
        ? { switchesConsulted: async () => [...new Set([...(await ref.takeSwitches!()), ...(await import('../../reference/adapter.ts')).APP_SWITCHES.take()])].sort() }
        : {}),
      ...(twin !== undefined ? { twin: () => twin(stub) } : {}),
      close: async () => {
        await closeAll(opened);
        await closeReference();
      },
    });
  } catch (error) {
    await closeAll(opened);
    await closeReference();
    throw error;
  }
}

/** The facts of a reference started in this thread, as its own thread gives them. */
function inThisThread(ref: RunningReference): StartedReference & { close(): Promise<void> } {
  return { url: ref.url, plaintextUrl: ref.plaintextUrl, ca: ref.tls.ca, mutant: ref.mutant, clock: ref.clock.share(), takeSwitches: async () => ref.switches?.take() ?? [], close: () => ref.close() };
}

function readCaFile(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `--ca ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new HarnessError('USAGE_ERROR', `--ca ${file} holds no PEM certificate`);
  return pem;
}

// ---- The harness's retrieval stub, trusted by the paying application ----

/**
 * The paying application's config with the stub's CA trusted besides its own:
 * the PEM text (module adapters) and a file holding both (process adapters),
 * removed on close.
 */
function trustingStub(config: AppRoleConfig, stub: RetrievalStub): { readonly config: AppRoleConfig; close(): Promise<void> } {
  const ca = config.ca !== undefined ? `${config.ca}\n${stub.ca}` : stub.ca;
  const dir = mkdtempSync(join(tmpdir(), 'cpr-conformance-ca-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca);
  return { config: { ...config, ca, caFile }, close: async () => rmSync(dir, { recursive: true, force: true }) };
}

// ---- The reference paying application's allow-list (no SSRF through a CPR URI) ----

/** `host:port` of every HTTP role the target file names: where its token URIs may point. */
function targetHosts(config: TargetConfig): string[] {
  const hosts = [config.payee, config.operator].flatMap((role) => (role?.adapter === 'http' ? [new URL(role.baseUrl).host] : []));
  return [...new Set(hosts)];
}

function isReferenceAdapter(module: string): boolean {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return real(module) === real(REFERENCE_ADAPTER);
}

/**
 * The reference paying application (module reference/adapter.ts) is the harness's
 * own: it gets `settings.allowed_hosts`, the file's own list or else the target's
 * hosts, widened by `extra`. Any other paying application fetches what it fetches.
 */
function withAllowedHosts(config: AppRoleConfig, hosts: readonly string[], extra: readonly string[]): AppRoleConfig {
  if (config.adapter !== 'module' || !isReferenceAdapter(config.module)) return config;
  const given = config.settings['allowed_hosts'];
  const base = Array.isArray(given) ? given.filter((h): h is string => typeof h === 'string') : hosts;
  return { ...config, settings: { ...config.settings, allowed_hosts: [...new Set([...base, ...extra])] } };
}

/** The allow-list of the harness's own paying application, as withAllowedHosts set it; undefined for any other application. */
function guardOf(config: AppRoleConfig): readonly HostPattern[] | undefined {
  if (config.adapter !== 'module' || !isReferenceAdapter(config.module)) return undefined;
  const hosts = config.settings['allowed_hosts'];
  return Array.isArray(hosts) ? checkAllowedHosts(hosts) : undefined;
}

// ---- Opening one role ----

async function openHttpRole(name: HttpRoleName, config: HttpRoleConfig, options: OpenOptions): Promise<HttpRole> {
  const role = await startRole(name, () => {
    switch (config.adapter) {
      case 'http':
        return Promise.resolve(
          createHttpRole({
            baseUrl: config.baseUrl,
            ...(config.plaintextBaseUrl !== undefined ? { plaintextBaseUrl: config.plaintextBaseUrl } : {}),
            ...(config.ca !== undefined ? { ca: config.ca } : {}),
            insecure: config.insecure,
            ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          }),
        );
      case 'module':
        return loadModuleRole(config.module, { role: name, settings: config.settings, ...common(config, options) });
      case 'process':
        return spawnProcessRole(config.command, { role: name, cwd: config.cwd, settings: config.settings, ...processCommon(config, options) });
    }
  });
  const authorized = config.controlToken !== undefined ? withControlToken(role, config.controlToken) : role;
  return config.controlLease !== undefined ? withLease(authorized, config.controlLease) : authorized;
}

function openAppRole(config: AppRoleConfig, options: OpenOptions): Promise<PayingAppRole> {
  return startRole('paying-app', () =>
    config.adapter === 'module'
      ? loadModuleRole(config.module, { role: 'paying-app', settings: config.settings, ...common(config, options) })
      : spawnProcessRole(config.command, { role: 'paying-app', cwd: config.cwd, settings: config.settings, ...processCommon(config, options) }),
  );
}

function common(config: { readonly ca?: string }, options: OpenOptions) {
  return { ...(config.ca !== undefined ? { ca: config.ca } : {}), ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) };
}

function processCommon(config: { readonly caFile?: string }, options: OpenOptions) {
  return { ...(config.caFile !== undefined ? { caFile: config.caFile } : {}), ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) };
}

/** Adapter construction errors become harness errors: bad options are CONFIG_INVALID, a role that does not start is unreachable. */
async function startRole<R>(name: string, start: () => Promise<R>): Promise<R> {
  try {
    return await start();
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    if (error instanceof TransportError) {
      throw new HarnessError('HARNESS_TARGET_UNREACHABLE', `${name} did not start: ${error.message}`, 'see harness/ADAPTERS.md for what the adapter expects');
    }
    throw new HarnessError('CONFIG_INVALID', `${name}: ${(error as Error)?.message ?? String(error)}`);
  }
}

async function capabilitiesOf(name: HttpRoleName, role: HttpRole | undefined, config: HttpRoleConfig | undefined, timeoutMs: number): Promise<Discovery> {
  if (!role || !config) return { capabilities: new Set() };
  if (config.capabilities !== 'auto') return { capabilities: new Set(config.capabilities) };
  return guard(name, role, () => discoverCapabilities(role, timeoutMs));
}


// ---- Assembly and description ----

type Parts = Omit<Target, 'description'>;

function assemble(parts: Parts): Target {
  let closing: Promise<void> | undefined;
  return { ...parts, description: describeTarget(parts), close: () => (closing ??= parts.close()) };
}

/** Only adapter kinds, URLs, TLS handling and capability names: nothing secret can get in. */
export function describeTarget(parts: Pick<Target, 'name' | 'embedded' | 'payee' | 'operator' | 'payingApp' | 'capabilities' | 'discoveryNotes'>): TargetDescription {
  const roles: Partial<Record<'payee' | 'operator' | 'paying-app', RoleEntry>> = {};
  for (const name of ['payee', 'operator'] as const) {
    const role = parts[name];
    if (!role) continue;
    roles[name] = {
      adapter: role.kind,
      ...(role.baseUrl !== undefined ? { base_url: role.baseUrl } : {}),
      tls: role.tls,
      capabilities: [...parts.capabilities[name]].sort(),
      ...(parts.discoveryNotes?.[name] !== undefined ? { capabilities_note: parts.discoveryNotes[name] } : {}),
    };
  }
  if (parts.payingApp) roles['paying-app'] = { adapter: parts.payingApp.kind, tls: 'in-process', capabilities: [] };
  return { name: parts.name, embedded: parts.embedded, roles };
}

async function closeAll(roles: readonly { close(): Promise<void> }[]): Promise<void> {
  const distinct = [...new Set(roles)];
  await Promise.allSettled(distinct.map((r) => r.close()));
}
