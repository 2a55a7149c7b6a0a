// Whether this machine has an IPv6 loopback (::1) to listen on: tests that need
// one say so and leave it out where there is none, never pass in its place.
import { hasIpv6Loopback } from '../../harness/stub/hosts.ts';

let probed: Promise<boolean> | undefined;

export function ipv6Loopback(): Promise<boolean> {
  probed ??= hasIpv6Loopback();
  return probed;
}
