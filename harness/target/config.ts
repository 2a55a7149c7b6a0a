// A target file once loaded (load.ts): paths resolved against the file's folder,
// the CA and key files read and checked, the control token taken from the file or
// the environment. openTarget (target.ts) turns it into running adapters.
import type { OkpJwk } from '../../profile/jwk.ts';

import type { Capability } from '../../profile/control.ts';

/** An Ed25519 key read from a JWK file with `d`. */
export interface KeyCredential {
  /** The 32-byte seed. Secret: never in a report. */
  readonly secretKey: Uint8Array;
  readonly publicKey: Uint8Array;
  /** The public JWK (kid = RFC 7638 thumbprint). */
  readonly jwk: OkpJwk;
}

export interface RoleCredentials {
  /** The Principal that issues cash-packs. */
  readonly principal?: KeyCredential;
  /** An identified redeemer, with the identity level the operator knows it at. */
  readonly redeemer?: KeyCredential & { readonly identityLevel: number };
  /** A key that reads pack status as the Operator (PROFILE.md §5). */
  readonly staff?: KeyCredential;
}

interface RoleCommon {
  readonly settings: Readonly<Record<string, unknown>>;
  /** PEM of the CA the role is verified with (http) or trusts (module, process). */
  readonly ca?: string;
  readonly caFile?: string;
}

export type AdapterConfig =
  | { readonly adapter: 'http'; readonly baseUrl: string; readonly plaintextBaseUrl?: string; readonly insecure: boolean }
  | { readonly adapter: 'module'; readonly module: string }
  | { readonly adapter: 'process'; readonly command: readonly string[]; readonly cwd: string };

export type HttpRoleConfig = RoleCommon &
  AdapterConfig & {
    /** The control bearer token. Secret. */
    readonly controlToken?: string;
    /** The test-control lease a command holds on this role's implementation (runner/lease.ts): its requests carry it. */
    readonly controlLease?: string;
    readonly capabilities: 'auto' | readonly Capability[];
    readonly credentials: RoleCredentials;
  };

export type AppRoleConfig = RoleCommon & Exclude<AdapterConfig, { adapter: 'http' }>;

export interface TargetConfig {
  readonly name: string;
  /** The file it was read from, if any. */
  readonly source?: string;
  readonly payee?: HttpRoleConfig;
  readonly operator?: HttpRoleConfig;
  readonly payingApp?: AppRoleConfig;
}
