// The paths a paying application reads a CPR from (spec §4.4, PROFILE.md §8):
// an in-memory value, direct JSON text, a file, an inline URI. Each class of a
// CPR field is read through a generated path, so a rule that one loader applies
// and another forgets is reached.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { encodeB64url } from '../../../profile/b64url.ts';
import { MAX_INLINE_URI_BYTES } from '../../../profile/cpr/index.ts';
import type { ScenarioContext } from '../../scenarios/context.ts';
import { read, type Answer } from '../support.ts';

const DELIVERY_PATHS = ['object', 'json', 'file', 'inline'] as const;
export type DeliveryPath = (typeof DELIVERY_PATHS)[number];

export const deliveryPath = fc.constantFrom(...DELIVERY_PATHS);

/**
 * Reads JSON text (or, on the object path, the value it denotes) through a
 * path; an inline URI over 2 048 bytes goes as direct JSON. Bytes (that no
 * string holds: not UTF-8, say) go only where bytes travel: a file, an inline URI.
 */
export async function readThrough(ctx: ScenarioContext, path: DeliveryPath, text: string | Uint8Array): Promise<{ answer: Answer; path: DeliveryPath }> {
  if (typeof text !== 'string') {
    if (path === 'file') return { answer: await readFile(ctx, text), path };
    if (path === 'inline') return { answer: await read(ctx, { kind: 'uri', uri: `std-cpr://inline/${encodeB64url(text)}` }), path };
    throw new RangeError(`readThrough: bytes go through a file or an inline URI, not the ${path} path`);
  }
  switch (path) {
    case 'object':
      return { answer: await read(ctx, { kind: 'object', value: JSON.parse(text.replace(/^\ufeff/, '')) }), path };
    case 'json':
      return { answer: await read(ctx, { kind: 'json', text }), path };
    case 'inline': {
      const uri = `std-cpr://inline/${encodeB64url(new TextEncoder().encode(text))}`;
      if (Buffer.byteLength(uri) > MAX_INLINE_URI_BYTES) return readThrough(ctx, 'json', text);
      return { answer: await read(ctx, { kind: 'uri', uri }), path };
    }
    case 'file':
      return { answer: await readFile(ctx, text), path };
  }
}

/** The paying application reads a file holding `content` (UTF-8 when it is text), in a folder of its own removed afterwards. */
async function readFile(ctx: ScenarioContext, content: string | Uint8Array): Promise<Answer> {
  const dir = mkdtempSync(join(tmpdir(), 'cpr-conformance-'));
  try {
    writeFileSync(join(dir, 'request.json'), content);
    return await read(ctx, { kind: 'file', path: join(dir, 'request.json') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
