// The target options `run` and `certify` share (--target, --ca, --insecure,
// --allow-host, --lease-wait), checked the same way, and the rerun command they put in every
// report so one test reruns alone against the same target.
import type { TargetChoice } from '../runner/resolve-target.ts';
import { checkAllowedHosts } from '../../reference/paying-app/hosts.ts';
import { integerOption } from './args.ts';
import { HarnessError } from './errors.ts';

export function targetChoice(values: Record<string, unknown>, command: string): TargetChoice {
  const target = values.target as string | undefined;
  const help = `see: cpr-conformance ${command} --help`;
  if (target === undefined) {
    if (values.ca !== undefined || values.insecure) throw new HarnessError('USAGE_ERROR', '--ca and --insecure go with --target URL', help);
    return { kind: 'embedded' };
  }
  if (/^https?:\/\//i.test(target)) {
    if (values.ca !== undefined && values.insecure) throw new HarnessError('USAGE_ERROR', 'give either --ca or --insecure, not both', help);
    return { kind: 'url', url: target, ...(values.ca !== undefined ? { caFile: values.ca as string } : {}), insecure: values.insecure === true };
  }
  if (values.ca !== undefined || values.insecure) throw new HarnessError('USAGE_ERROR', '--ca and --insecure go with --target URL; a target file sets tls per role', help);
  return { kind: 'file', path: target };
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
  for (const host of (values['allow-host'] as string[] | undefined) ?? []) parts.push(`--allow-host ${shellQuote(host)}`);
  if (values['request-timeout'] !== undefined) parts.push(`--request-timeout ${values['request-timeout'] as string}`);
  for (const f of (values.scenario as string[] | undefined) ?? []) parts.push(`--scenario ${shellQuote(f)}`);
  if (values.strict) parts.push('--strict');
  if (values.seed !== undefined) parts.push(`--seed ${values.seed as string}`);
  return parts.join(' ');
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}
