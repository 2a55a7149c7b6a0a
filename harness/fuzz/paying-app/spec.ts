// The paying-application fuzzer's commands as data (plain JSON: a crash file
// carries the very documents it read, and `replay` gives them again).
import type { JsonTextChoices } from '../../../generators/classes/index.ts';
import type { Draw } from './documents.ts';
import type { StubHost } from '../../stub/hosts.ts';
import type { RetrievalAnswer } from '../../../generators/classes/retrieval-answer.ts';

/** How a CPR reaches the application (spec §4.4): direct JSON, an in-memory value, a file, an inline URI, or a token URI (QR or deep link) it must retrieve. */
export type Channel = 'json' | 'object' | 'file' | 'inline' | 'qr' | 'deep-link';
export const CHANNELS: readonly Channel[] = ['json', 'object', 'file', 'inline', 'qr', 'deep-link'];

/**
 * How the document is written (PROFILE.md §1): as JSON.stringify writes it; with a
 * byte order mark; with a member written twice; with member names written with
 * \u escapes (the same JSON); as something that is not JSON; or padded with
 * white space to exactly 65 536 bytes, or one more, or nothing at all (files
 * and retrievals). `{ json }` is a member of the classes json.duplicate or
 * json.escaped-name (generators/classes/json-text.ts): a member of any object
 * at any depth written twice, plainly or escaped, with the same or another
 * value; some member names at any depth written with escapes.
 */
export type Encoding =
  | 'plain'
  | 'bom'
  | 'duplicate-member'
  | 'escaped-names'
  | 'not-json'
  | 'at-limit'
  | 'over-limit'
  | 'empty'
  | { readonly json: Extract<JsonTextChoices, { class: 'json.duplicate' | 'json.escaped-name' }> }
  /** The document followed by text that makes the whole no JSON text (generators/parts/json-trailer.ts). */
  | { readonly trailing: string };

/** What the stand-in payee answers a retrieval with (token URIs only): the classes of generators/classes/retrieval-answer.ts. */
export type Serving = RetrievalAnswer;

/** Where a token URI points: the stand-in payee's base URL (host, path) and what else its query holds. */
export interface Endpoint {
  readonly host: StubHost;
  readonly basePath: string;
  /** Other query parameters, which a paying application ignores (PROFILE.md §8.1). */
  readonly extraQuery?: string;
  /** An http:// endpoint: refused before any request (URI_INVALID), the token never sent. */
  readonly plaintext?: true;
}

/**
 * A generated document: valid (validCpr), valid but for one rule (brokenCpr),
 * whose registry ID it carries, or drawn field by field from the field classes
 * (documents.ts), with the draws that made it.
 */
export type Document = { readonly valid: unknown } | { readonly broken: unknown; readonly rule: string } | { readonly drawn: unknown; readonly draws: readonly Draw[] };

/** When the document expires: as generated (years ahead), or moved back before the application's clock. */
type Dating = 'as-generated' | 'expired';

/** The DerivationContext (spec §2.6) a derive is given, but for `now`, which the command sets near expires_at. */
export interface DeriveContext {
  readonly payer: unknown;
  readonly rail: unknown;
  readonly authorization: unknown;
  readonly payer_amount?: string;
  readonly supported_rails?: readonly string[];
}

export type AppCommand =
  | { readonly kind: 'read'; readonly doc: Document; readonly dating: Dating; readonly channel: Channel; readonly encoding: Encoding; readonly serving?: Serving; readonly endpoint?: Endpoint }
  /** Derive from a CPR at an instant `nowFromExpiryMs` from its expires_at (negative: before it); `draws` when it was drawn from the field classes. */
  | { readonly kind: 'derive'; readonly doc: unknown; readonly draws?: readonly Draw[]; readonly context: DeriveContext; readonly nowFromExpiryMs: number };

export type AppCommandKind = AppCommand['kind'];
export const APP_COMMAND_KINDS: readonly AppCommandKind[] = ['read', 'derive'];

/** A paying-application run has no state of its own to set up: each read and derive stands alone. */
export type AppSetup = Record<string, never>;
