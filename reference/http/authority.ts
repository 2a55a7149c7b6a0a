// The authority a request is for, as this server resolves it: the Host header
// when it names this server (one of its names, in any letter case, on any port:
// a front server of its own may listen on another), else the server's own
// primary authority. A Host the client writes is no proof of which host it
// meant (PROFILE.md §2.4: a signature made for another host identifies
// nobody), so a request naming another host is judged as a request to this
// server, never as one to the host it names.
import { NO_FAULTS, type Faults } from '../mutants.ts';
import type { Handler } from './types.ts';

/** The host of a `host[:port]` authority as URLs name it (lower case, an IPv6 address in brackets), or none when it is no authority. */
function hostOf(authority: string): string | undefined {
  try {
    return new URL(`https://${authority}`).hostname;
  } catch {
    // Stryker disable next-line BlockStatement: an empty block returns undefined too
    return undefined;
  }
}

/** `handler` with `authority` resolved against `names` (host names and addresses, an IPv6 address in brackets); `primary` is the server's own authority. */
export function withOwnAuthority(primary: string, names: readonly string[], handler: Handler, faults: Faults = NO_FAULTS): Handler {
  // Mutant op-own-authority-port-compared: the whole authority, port and all, compared with its own names: only the primary one is its own.
  // Stryker disable next-line all: only the op-own-authority-port-compared fault compares the port
  const key = faults.has('op-own-authority-port-compared') ? (authority: string) => authority.toLowerCase() : hostOf;
  // Stryker disable next-line ArrayDeclaration: which names besides its host are its own is the Operator's to say (PROFILE.md §2.4 names only its host, on any port)
  const own = new Set([primary, ...names].map(key));
  return (request) => handler({ ...request, authority: own.has(key(request.authority)) ? request.authority : primary });
}
