import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../../harness/cli/errors.ts';
import type { HttpRoleConfig } from '../../../harness/target/config.ts';
import { preflight } from '../../../harness/target/preflight.ts';
import { openTarget, type Target } from '../../../harness/target/target.ts';

const http = (baseUrl: string): HttpRoleConfig => ({ adapter: 'http', baseUrl, insecure: false, settings: {}, capabilities: [], credentials: {} });

async function server(answer: boolean): Promise<{ url: string; server: Server }> {
  const s = createServer((_req, res) => {
    if (answer) res.writeHead(500).end('broken');
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, server: s };
}

describe('preflight', () => {
  const targets: Target[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(targets.splice(0).map((t) => t.close()));
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      s.close();
    }
  });
  const open = async (roles: { payee?: string; operator?: string }) => {
    const target = await openTarget({
      name: 't',
      ...(roles.payee ? { payee: http(roles.payee) } : {}),
      ...(roles.operator ? { operator: http(roles.operator) } : {}),
    });
    targets.push(target);
    return target;
  };

  it('fails with HARNESS_TARGET_UNREACHABLE within seconds when nothing listens', async () => {
    const target = await open({ payee: 'http://127.0.0.1:9', operator: 'http://127.0.0.1:9' });
    const started = performance.now();
    const error = await preflight(target).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(3500);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('HARNESS_TARGET_UNREACHABLE');
    expect((error as HarnessError).message).toMatch(/^(payee|operator) at http:\/\/127\.0\.0\.1:9 did not answer: /);
    expect((error as HarnessError).hint).toBeTruthy();
  });

  it('fails within its deadline when the role accepts connections but never answers', async () => {
    const silent = await server(false);
    servers.push(silent.server);
    const target = await open({ operator: silent.url });
    const started = performance.now();
    await expect(preflight(target, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'HARNESS_TARGET_UNREACHABLE' });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('accepts an HTTP error status: the role answered', async () => {
    const broken = await server(true);
    servers.push(broken.server);
    const target = await open({ payee: broken.url, operator: broken.url });
    await expect(preflight(target)).resolves.toBeUndefined();
  });
});
