// A role with its send wrapped: the one way to compose behaviour around an HTTP
// role (control token, circuit breaker, request recording), as undici composes
// interceptors around dispatch (STYLE.md, undici row).
import type { HttpRole, WireRequest, WireResponse } from './types.ts';

export function interceptSend(role: HttpRole, send: (request: WireRequest) => Promise<WireResponse>): HttpRole {
  return {
    kind: role.kind,
    description: role.description,
    authority: role.authority,
    ...(role.baseUrl !== undefined ? { baseUrl: role.baseUrl } : {}),
    ...(role.plaintextBaseUrl !== undefined ? { plaintextBaseUrl: role.plaintextBaseUrl } : {}),
    tls: role.tls,
    send,
    close: () => role.close(),
  };
}
