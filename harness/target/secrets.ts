// The secrets a target file holds (control tokens, private keys) never reach a
// report or the terminal. Nothing in the harness writes them on purpose
// (describeTarget, transcript redaction of Authorization); this is the second
// line: every string written is scrubbed of each secret in every form it could
// take, which also catches a target that echoes a token back in its answers.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyCredential, RoleCredentials, TargetConfig } from './config.ts';

const REDACTED = '[redacted]';
/** Shorter strings are not scrubbed: they would mangle ordinary text (and are no secret worth the name). */
const MIN_SECRET_LENGTH = 6;

export class Secrets {
  private readonly forms: readonly string[];

  constructor(values: Iterable<string>) {
    // Longest first, so a secret that contains another is replaced whole.
    this.forms = [...new Set([...values].filter((v) => v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  text(value: string): string {
    let out = value;
    for (const secret of this.forms) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** A deep copy with every string (object keys included) scrubbed. */
  value<T>(value: T): T {
    if (this.empty) return value;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.text(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, child]) => [this.text(k), walk(child)]));
      return v;
    };
    return walk(value) as T;
  }

  /** Scrubs every file under `dir` in place (allure-results, written by its own reporter). */
  files(dir: string): void {
    if (this.empty) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        this.files(path);
        continue;
      }
      const before = readFileSync(path, 'latin1');
      // latin1 round-trips any bytes; the secrets are ASCII, so they match as they would in UTF-8.
      const after = this.text(before);
      if (after !== before) writeFileSync(path, after, 'latin1');
    }
  }
}

/** Every form a secret of the target could be written in. */
export function targetSecrets(config: TargetConfig | undefined): Secrets {
  if (!config) return new Secrets([]);
  const values: string[] = [];
  for (const role of [config.payee, config.operator]) {
    if (!role) continue;
    if (role.controlToken !== undefined) values.push(role.controlToken);
    values.push(...credentialForms(role.credentials));
  }
  for (const settings of [config.payee?.settings, config.operator?.settings, config.payingApp?.settings]) {
    const token = settings?.['control_token'];
    if (typeof token === 'string') values.push(token);
  }
  return new Secrets(values);
}

function credentialForms(credentials: RoleCredentials): string[] {
  const keys: KeyCredential[] = [credentials.principal, credentials.staff, credentials.redeemer].filter((k): k is NonNullable<typeof k> => k !== undefined);
  return keys.flatMap((key) => keyForms(key.secretKey));
}

/** The 32-byte seed as the JWK `d` (base64url), standard base64, and hex in either case. */
function keyForms(seed: Uint8Array): string[] {
  const bytes = Buffer.from(seed);
  const base64 = bytes.toString('base64');
  const hex = bytes.toString('hex');
  return [bytes.toString('base64url'), base64, base64.replace(/=+$/, ''), hex, hex.toUpperCase()];
}
