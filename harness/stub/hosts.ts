// How an endpoint names the retrieval stub: a name, an IPv4 address, or ::1
// in one of its spellings (generators/base-url.ts), the last only where the
// stub listens on ::1 (RetrievalStub.ipv6).
import { createServer } from 'node:net';
import { IPV6_LOOPBACK } from '../../generators/index.ts';

export const STUB_HOSTS = ['127.0.0.1', 'localhost', ...IPV6_LOOPBACK] as const;
export type StubHost = (typeof STUB_HOSTS)[number];

export const isIpv6 = (host: string): boolean => host.startsWith('[');

/** Whether a server can listen on ::1 here (a container may have no IPv6 at all). */
export function hasIpv6Loopback(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(0, '::1', () => probe.close(() => resolve(true)));
  });
}
