// The authority a request is for, as this server resolves it: the Host header
// when it names this server (its host in any letter case, on its port), else
// the server's own primary authority. A Host the client writes is no proof of
// which authority it meant (PROFILE.md §2.4: a signature made for another host
// identifies nobody), so a request naming a foreign one is judged as a request
// to this server, never as one to the host it names.
import type { Handler } from './types.ts';

/** `handler` with `authority` resolved against `own` (host:port forms; the first is the primary). */
export function withOwnAuthority(own: readonly string[], handler: Handler): Handler {
  const names = new Set(own.map((a) => a.toLowerCase()));
  const primary = own[0];
  if (primary === undefined) throw new TypeError('a server has at least one authority');
  return (request) => handler({ ...request, authority: names.has(request.authority.toLowerCase()) ? request.authority : primary });
}
