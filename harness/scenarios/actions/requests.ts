// The HTTP request a step describes, signed (RFC 9421) by a named key when it says so.
import { signRequestAs, SIGNATURE_LAYOUTS } from '../../../profile/index.ts';
import type { Role } from '../../../profile/registry.ts';
import type { WireRequest } from '../../adapters/types.ts';
import type { ScenarioContext } from '../context.ts';
import type { Params } from '../params.ts';

export function roleOf(ctx: ScenarioContext, p: Params): Role {
  return p.role() ?? ctx.scenario.role;
}

export function httpRequest(ctx: ScenarioContext, p: Params): WireRequest {
  const method = p.text('method');
  const path = p.text('path');
  const given = p.nested('headers');
  const headers: Record<string, string> = Object.fromEntries(Object.keys(given?.all() ?? {}).map((name) => [name, given!.text(name)]));
  let body: string | Uint8Array | undefined;
  if (p.has('json')) {
    body = JSON.stringify(p.value('json'));
    headers['content-type'] ??= 'application/json';
  } else if (p.has('body')) {
    body = p.text('body');
  } else if (p.has('body_base64')) {
    // Bytes a string cannot hold (invalid UTF-8, say).
    body = Uint8Array.from(Buffer.from(p.text('body_base64'), 'base64'));
  }
  const contentType = p.text('content_type', 'optional');
  if (contentType !== undefined) headers['content-type'] = contentType;
  const signAs = p.key('sign_as', 'optional');
  if (signAs !== undefined) Object.assign(headers, httpSignature(ctx, roleOf(ctx, p), method, path, body, signAs, p));
  return { method, path, headers, ...(body !== undefined ? { body } : {}), ...(p.choice('transport', ['default', 'plaintext'] as const) === 'plaintext' ? { transport: 'plaintext' as const } : {}) };
}

/** RFC 9421 signature by a named key (PROFILE.md §2.4), in the profile's layout or a named other one. */
export function httpSignature(ctx: ScenarioContext, role: Role, method: string, path: string, body: string | Uint8Array | undefined, keyName: string, p: Params): Record<string, string> {
  const key = ctx.key(keyName);
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const [bare, query] = path.split('?') as [string, string | undefined];
  const target = { method, authority: ctx.http(role).authority, path: bare, ...(query !== undefined ? { query } : {}), ...(bytes !== undefined ? { body: bytes } : {}) };
  const at = p.integer('signed_at', 'optional') ?? ctx.nowSeconds();
  return { ...signRequestAs(target, { secretKey: key.secretKey, kid: key.jwk.kid }, at, p.choice('signature', SIGNATURE_LAYOUTS) ?? 'profile') };
}
