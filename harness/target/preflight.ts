// Before any test runs, one cheap request per HTTP role: an unreachable target
// fails the run within seconds with one clear message (exit 2), not after one
// timeout per test, and never as a conformance failure (STYLE.md §5). Any HTTP
// status, an error status included, means the role answered.
import { HarnessError } from '../errors.ts';
import { TransportError, type HttpRole } from '../adapters/types.ts';
import type { Target } from './target.ts';

interface PreflightOptions {
  /** Deadline of each probe; default 3 000 ms. */
  readonly timeoutMs?: number;
}

/** What each role is asked: something every implementation of it serves, or at least answers. */
const PROBES = [
  ['operator', '/.well-known/cashpack-policy.json'],
  ['payee', '/_control/capabilities'],
] as const;

const HINTS: Readonly<Record<TransportError['code'], string>> = {
  REFUSED: 'is it running, and is base_url in the target file (or --target) right?',
  TIMEOUT: 'nothing answered in time: check the host, the port and any firewall',
  TLS: 'trust its CA with tls.ca_file in the target file (or --ca FILE), or opt out with tls.insecure: true',
  RESET: 'the connection was cut: is this the right port and scheme (http or https)?',
  PROTOCOL: 'the answer was not HTTP: is this the right port and scheme (http or https)?',
  CRASHED: 'the implementation threw (or its child process answered an error) instead of answering: see its message and stderr',
  CLOSED: 'the adapter was closed before it answered',
  UNAVAILABLE: 'the role could not be reached with this adapter',
};

export async function preflight(target: Target, options: PreflightOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 3000;
  const probes = PROBES.flatMap(([name, path]) => {
    const role = name === 'operator' ? target.operator : target.payee;
    return role ? [probe(name, role, path, timeoutMs)] : [];
  });
  const outcomes = await Promise.allSettled(probes);
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
}

async function probe(name: string, role: HttpRole, path: string, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  // Belt and braces: the adapter honours timeoutMs, and this bounds it anyway.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TransportError('TIMEOUT', `no answer within ${timeoutMs} ms`)), timeoutMs + 250);
  });
  try {
    await Promise.race([role.send({ method: 'GET', path, headers: { accept: 'application/json' }, timeoutMs }), deadline]);
  } catch (error) {
    if (error instanceof TransportError) throw unreachable(name, role, error);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** A TransportError while setting up means the role did not answer: report it as preflight would. */
export async function guard<T>(name: string, role: HttpRole, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TransportError) throw unreachable(name, role, error);
    throw error;
  }
}

// The certificate checks a TLS client makes (OpenSSL's verify codes and Node's
// host name check): a failure of one is the harness's trust, not an unreachable target.
const UNTRUSTED = /\((?:UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_[A-Z_]+|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH)\)$/;

/** The one message for a role that did not answer (or whose certificate the harness does not trust), with what to do about it. */
export function unreachable(name: string, role: HttpRole, error: TransportError): HarnessError {
  const at = `${name} at ${role.baseUrl ?? role.description}`;
  if (error.code === 'TLS' && UNTRUSTED.test(error.message)) {
    return new HarnessError('HARNESS_TLS_UNTRUSTED', `${at} answered, but its TLS certificate is not trusted: ${error.message}`);
  }
  return new HarnessError('HARNESS_TARGET_UNREACHABLE', `${at} did not answer: ${error.message}`, HINTS[error.code]);
}
