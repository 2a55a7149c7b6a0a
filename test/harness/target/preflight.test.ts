import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../../harness/errors.ts';
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

  it('fails with HARNESS_TARGET_UNREACHABLE on the refused connection when nothing listens', async () => {
    const target = await open({ payee: 'http://127.0.0.1:9', operator: 'http://127.0.0.1:9' });
    const error = await preflight(target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    // Refused, not waited out: the message names the refusal, not a deadline.
    expect((error as HarnessError).message).toMatch(/ECONNREFUSED/);
    expect((error as HarnessError).code).toBe('HARNESS_TARGET_UNREACHABLE');
    expect((error as HarnessError).message).toMatch(/^(payee|operator) at http:\/\/127\.0\.0\.1:9 did not answer: /);
    expect((error as HarnessError).hint).toBeTruthy();
  });

  it('fails on its own deadline when the role accepts connections but never answers', async () => {
    const silent = await server(false);
    servers.push(silent.server);
    const target = await open({ operator: silent.url });
    const error = (await preflight(target, { timeoutMs: 200 }).catch((e: unknown) => e)) as HarnessError;
    expect(error).toMatchObject({ code: 'HARNESS_TARGET_UNREACHABLE' });
    expect(error.message).toMatch(/no complete response within 200 ms$/);
  });

  it('accepts an HTTP error status: the role answered', async () => {
    const broken = await server(true);
    servers.push(broken.server);
    const target = await open({ payee: broken.url, operator: broken.url });
    await expect(preflight(target)).resolves.toBeUndefined();
  });
});
