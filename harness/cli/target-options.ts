// The target options `run`, `certify` and `fuzz` share (--target, --ca,
// --insecure, --control-token-env, --allow-host, and the server lifecycle:
// --start, --ready, --ready-timeout, --stop-grace; --lease-wait), checked the same way, and
// the rerun command they put in every report so one test reruns alone against
// the same target.
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { TargetChoice } from '../runner/resolve-target.ts';
import { checkAllowedHosts } from '../../reference/paying-app/hosts.ts';
import { startServer, type ServerOptions } from '../target/lifecycle.ts';

/** A --start server as the command line gives it; its notices go to the command's terminal. */
type ServerCommand = Omit<ServerOptions, 'notice'>;
import type { Terminal } from '../runner/terminal.ts';
import { HarnessError } from './errors.ts';
import { integerOption, optionLines, type Declared } from './args.ts';
import type { CommandIo } from '../io.ts';

/** The test-control token and the server lifecycle: one declaration each, which also writes their --help lines. */
const CONTROL_TOKEN_FLAG = {
  'control-token-env': { type: 'string', value: 'NAME', help: 'with --target URL: the test-control bearer token is in the environment variable NAME (never on the command line; scrubbed from every report)' },
} as const satisfies Readonly<Record<string, Declared>>;

const LIFECYCLE_FLAGS = {
  start: { type: 'string', value: '"COMMAND"', help: 'run COMMAND in a shell before anything is sent; its output goes to server.log in the report folder. It is stopped afterwards whatever the outcome, Ctrl-C included: SIGTERM to its process group, SIGKILL after --stop-grace' },
  ready: { type: 'string', value: 'URL', help: 'with --start: poll URL until it answers with a status below 500 (default: the --target URL; its certificate is checked by the run, not here)' },
  'ready-timeout': { type: 'string', value: 'S', help: 'how long the server may take to answer --ready (default 60); a server that exits first, or does not answer in time, is a harness error quoting its last output lines (exit 2), never a conformance result' },
  'stop-grace': { type: 'string', value: 'S', help: 'seconds between SIGTERM and SIGKILL (default 5)' },
} as const satisfies Readonly<Record<string, Declared>>;

/** --ca, in the same words for every command that takes --target URL. */
export const CA_FLAG = {
  ca: { type: 'string', value: 'FILE', help: 'with --target URL: the CA certificate to trust' },
} as const satisfies Readonly<Record<string, Declared>>;

/** The flags of the target, declared once for every command that opens one. */
export const TARGET_FLAGS = {
  target: { type: 'string' },
  ca: { type: 'string' },
  insecure: { type: 'boolean' },
  ...CONTROL_TOKEN_FLAG,
  ...LIFECYCLE_FLAGS,
} as const;

/** The help text of those flags (each command lists its own --target and --ca above it), from their declarations. */
export const LIFECYCLE_HELP = `${optionLines(CONTROL_TOKEN_FLAG)}

Server lifecycle (the implementation under test, started and stopped here):
${optionLines(LIFECYCLE_FLAGS)}
`;

const DEFAULT_READY_TIMEOUT_S = 60;
const DEFAULT_STOP_GRACE_S = 5;

export function targetChoice(values: Record<string, unknown>, command: string, env: CommandIo['env']): TargetChoice {
  const target = values.target as string | undefined;
  const help = `see: cpr-conformance ${command} --help`;
  const tokenEnv = values['control-token-env'] as string | undefined;
  if (target === undefined) {
    if (values.ca !== undefined || values.insecure) throw new HarnessError('USAGE_ERROR', '--ca and --insecure go with --target URL', help);
    if (tokenEnv !== undefined) throw new HarnessError('USAGE_ERROR', '--control-token-env goes with --target URL', 'the embedded reference needs no token; a target file names its own with control.token_env');
    return { kind: 'embedded' };
  }
  if (/^https?:\/\//i.test(target)) {
    if (values.ca !== undefined && values.insecure) throw new HarnessError('USAGE_ERROR', 'give either --ca or --insecure, not both', help);
    const controlToken = tokenEnv === undefined ? undefined : tokenFrom(tokenEnv, env);
    return { kind: 'url', url: target, ...(values.ca !== undefined ? { caFile: values.ca as string } : {}), insecure: values.insecure === true, ...(controlToken !== undefined ? { controlToken } : {}) };
  }
  refuseUrlLike(target);
  if (values.ca !== undefined || values.insecure) throw new HarnessError('USAGE_ERROR', '--ca and --insecure go with --target URL; a target file sets tls per role', help);
  if (tokenEnv !== undefined) throw new HarnessError('USAGE_ERROR', '--control-token-env goes with --target URL; a target file names the variable itself', 'set control.token_env in the target file (see: cpr-conformance init)');
  return { kind: 'file', path: target, env };
}

/**
 * A --target that is not http(s) and names no file but looks like a URL: a
 * URL of another scheme, or host:port without one. A USAGE_ERROR saying which,
 * rather than a target file that cannot be read.
 */
export function refuseUrlLike(target: string): void {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(target)?.[1];
  if (scheme !== undefined) throw new HarnessError('USAGE_ERROR', `--target ${target}: a target URL is http or https, not ${scheme}`, 'e.g. --target https://127.0.0.1:8443, or a target file (see: cpr-conformance init)');
  if (/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}(\/\S*)?$/i.test(target) && !existsSync(target)) {
    throw new HarnessError('USAGE_ERROR', `--target ${target} is neither a target file nor a URL (did you mean https://${target}?)`, 'a URL target names its scheme: --target https://HOST:PORT (or http://)');
  }
}

function tokenFrom(name: string, env: CommandIo['env']): string {
  const token = env[name];
  if (token === undefined || token === '') throw new HarnessError('USAGE_ERROR', `--control-token-env ${name}: the environment variable ${name} is not set, or empty`, `export ${name}=<the target's test-control token> before the command`);
  return token;
}

/**
 * The --start server of a command, or undefined without --start. Its log goes
 * to `logDir`/server.log, and it starts with the command's environment. --ready
 * defaults to the --target URL; with a target file it must be given.
 */
export function serverOptionsOf(values: Record<string, unknown>, command: string, choice: TargetChoice, logDir: string, env: CommandIo['env']): ServerCommand | undefined {
  const start = values.start as string | undefined;
  const help = `see: cpr-conformance ${command} --help`;
  if (start === undefined) {
    for (const flag of ['ready', 'ready-timeout', 'stop-grace'] as const) {
      if (values[flag] !== undefined) throw new HarnessError('USAGE_ERROR', `--${flag} goes with --start "COMMAND"`, help);
    }
    return undefined;
  }
  if (start.trim() === '') throw new HarnessError('USAGE_ERROR', '--start needs a command', 'e.g. --start "./bin/server --port 8443" --ready https://127.0.0.1:8443/');
  if (choice.kind === 'embedded') throw new HarnessError('USAGE_ERROR', '--start starts the implementation under test: give its --target too', 'e.g. --start "./bin/server" --target https://127.0.0.1:8443 --ca ca.pem');
  const ready = (values.ready as string | undefined) ?? (choice.kind === 'url' ? choice.url : undefined);
  if (ready === undefined) throw new HarnessError('USAGE_ERROR', '--start with a target file needs --ready URL: the URL to poll until the server answers', 'e.g. --ready https://127.0.0.1:8443/.well-known/cashpack-policy.json');
  try {
    const url = new URL(ready);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
  } catch {
    throw new HarnessError('USAGE_ERROR', `--ready ${ready} is not an http(s) URL`, 'e.g. --ready https://127.0.0.1:8443/.well-known/cashpack-policy.json');
  }
  const readyTimeout = integerOption(command, 'ready-timeout', values['ready-timeout'], 1, 3600) ?? DEFAULT_READY_TIMEOUT_S;
  const stopGrace = integerOption(command, 'stop-grace', values['stop-grace'], 0, 600) ?? DEFAULT_STOP_GRACE_S;
  return {
    command: start,
    env,
    readyUrl: ready,
    readyTimeoutMs: readyTimeout * 1000,
    stopGraceMs: stopGrace * 1000,
    logFile: join(logDir, 'server.log'),
  };
}

/** Runs `body` with the --start server up (when there is one), and stops it afterwards whatever happens. */
export async function withServer<T>(options: ServerCommand | undefined, terminal: Terminal, body: () => Promise<T>): Promise<T> {
  const stop = await serverUp(options, terminal);
  try {
    return await body();
  } finally {
    await stop();
  }
}

/** Starts the --start server (when there is one) and waits until it is ready; the function returned stops it, saying how. */
export async function serverUp(options: ServerCommand | undefined, terminal: Terminal): Promise<() => Promise<void>> {
  if (options === undefined) return async () => undefined;
  terminal.line(`server: starting ${JSON.stringify(options.command)} (output: ${options.logFile}); waiting up to ${options.readyTimeoutMs / 1000} s for ${options.readyUrl}`);
  const server = await startServer({ ...options, notice: (text) => terminal.error(text) });
  terminal.line(`server: ready (pid ${server.pid})`);
  return async () => {
    const stopped = await server.stop();
    if (stopped.exitedBefore !== undefined) {
      terminal.line(`server: warning: it had exited by itself before it was stopped (${stopped.exitedBefore.signal ?? `code ${stopped.exitedBefore.code}`}): see ${options.logFile}`);
    } else {
      terminal.line(`server: stopped${stopped.killed ? ` with SIGKILL: it outlived SIGTERM by ${options.stopGraceMs / 1000} s` : ''}`);
    }
  };
}

/** A file an option will write after the work: its folder must exist now, not be found missing after minutes of work. */
export function fileInExistingFolder(file: string | undefined, flag: string, example: string): void {
  if (file === undefined || existsSync(dirname(resolve(file)))) return;
  throw new HarnessError('USAGE_ERROR', `${flag} ${file}: the folder ${dirname(resolve(file))} does not exist`, `give a file in a folder that exists, e.g. ${flag} ${example}`);
}

/**
 * The report folder, checked before anything runs: made if missing and
 * written to once, so that a folder that cannot be written is a usage error
 * in a second, not after the run. The kernel's pseudo-filesystems are refused
 * outright: a file written there is no report and may be an action.
 */
export function writableDir(dir: string, flag: string): string {
  const absolute = resolve(dir);
  const real = realPrefix(absolute);
  if (/^\/(proc|sys|dev)(\/|$)/.test(real)) throw new HarnessError('USAGE_ERROR', `${flag} ${dir} is under ${real.split('/')[1] === undefined ? real : `/${real.split('/')[1]}`}: not a place for reports`, `give a folder of your own, e.g. ${flag} reports/run-1`);
  const probe = join(absolute, `.cpr-conformance-write-check-${process.pid}`);
  try {
    mkdirSync(absolute, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new HarnessError('USAGE_ERROR', `${flag} ${dir} cannot be written (${reason})`, `give a folder you can write to, e.g. ${flag} reports/run-1`);
  }
  return absolute;
}

/** The real path of the longest existing prefix of `path` (a folder to be made may not exist yet). */
function realPrefix(path: string): string {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    const real = realpathSync(existing);
    return join(real, path.slice(existing.length));
  } catch {
    return path;
  }
}

/**
 * --lease-wait S: how long to wait for a target's test-control lease another
 * client holds (PROFILE.md §12); without it a busy target stops the command
 * at once (HARNESS_TARGET_BUSY, exit 2).
 */
export function leaseWaitOf(values: Record<string, unknown>, command: string): { leaseWaitSeconds?: number } {
  const seconds = integerOption(command, 'lease-wait', values['lease-wait'], 0, 86_400, `e.g. --lease-wait 600 waits up to ten minutes for the run that holds the target; see: cpr-conformance ${command} --help`);
  return seconds === undefined ? {} : { leaseWaitSeconds: seconds };
}

/** --allow-host values, checked: a host or host:port, for a target with the reference paying application. */
export function allowHostsOf(given: string[] | undefined, target: TargetChoice): string[] {
  if (given === undefined || given.length === 0) return [];
  if (target.kind === 'url') {
    throw new HarnessError('USAGE_ERROR', '--allow-host widens what the reference paying application may contact; a --target URL has no paying application', 'use it with no --target (the embedded reference) or a target file whose paying_app is reference/adapter.ts');
  }
  try {
    return [...checkAllowedHosts(given)];
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `--allow-host: ${(error as Error).message.replace(/^allowedHosts: /, '')}`, 'give a host name or address, optionally with :port, e.g. --allow-host 127.0.0.2:8443');
  }
}

/** `run` against the same target with the same rules: each test's rerun command starts with it. */
export function rerunBase(values: Record<string, unknown>): string {
  const parts = ['npx cpr-conformance run'];
  if (values.target !== undefined) parts.push(`--target ${shellQuote(values.target as string)}`);
  if (values.ca !== undefined) parts.push(`--ca ${shellQuote(values.ca as string)}`);
  if (values.insecure) parts.push('--insecure');
  if (values['control-token-env'] !== undefined) parts.push(`--control-token-env ${shellQuote(values['control-token-env'] as string)}`);
  // A test reruns against a server of its own, started as this run's was.
  if (values.start !== undefined) parts.push(`--start ${shellQuote(values.start as string)}`);
  if (values.ready !== undefined) parts.push(`--ready ${shellQuote(values.ready as string)}`);
  for (const host of (values['allow-host'] as string[] | undefined) ?? []) parts.push(`--allow-host ${shellQuote(host)}`);
  if (values['request-timeout'] !== undefined) parts.push(`--request-timeout ${values['request-timeout'] as string}`);
  for (const f of (values.scenario as string[] | undefined) ?? []) parts.push(`--scenario ${shellQuote(f)}`);
  if (values.strict) parts.push('--strict');
  // No --seed: a property's rerun adds the run's seed (the one given, or the one drawn), and a scenario draws nothing.
  return parts.join(' ');
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}
