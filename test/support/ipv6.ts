// Whether this machine has an IPv6 loopback (::1) to listen on: tests that need
// one say so and leave it out where there is none, never pass in its place.
import { createServer } from 'node:net';

let probed: Promise<boolean> | undefined;

export function ipv6Loopback(): Promise<boolean> {
  probed ??= new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(0, '::1', () => server.close(() => resolve(true)));
  });
  return probed;
}
