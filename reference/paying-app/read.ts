// Reading a CPR from any delivery (spec §4.4; PROFILE.md §8): direct JSON, a file,
// a QR / deep-link / inline URI, or an in-memory value. Each kind loads a JSON
// document; all then pass the same acceptance (accept.ts).
import { open } from 'node:fs/promises';
import { parseIJson } from '../../profile/index.ts';
import { parseDeliveryUri, retrievalUrl } from '../../profile/cpr/index.ts';
import { accept } from './accept.ts';
import { reject, type Accepted, type Rejection } from './rejection.ts';
import { retrieveCpr, type RetrievalSettings } from './retrieve.ts';

export type ReadInput =
  | { readonly kind: 'json'; readonly text: string }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'uri'; readonly uri: string }
  | { readonly kind: 'object'; readonly value: unknown };

export interface ReadSettings extends RetrievalSettings {
  now(): number;
}

type Loaded = { readonly ok: true; readonly doc: unknown } | Rejection;
type Loader<K extends ReadInput['kind']> = (input: Extract<ReadInput, { kind: K }>, settings: ReadSettings) => Loaded | Promise<Loaded>;

const LOADERS: { readonly [K in ReadInput['kind']]: Loader<K> } = {
  json: (input) => parseJson(input.text),
  file: (input, settings) => loadFile(input.path, settings.maxBodyBytes),
  uri: (input, settings) => loadUri(input.uri, settings),
  // Round-trip through JSON so an in-memory value meets the same I-JSON rules as bytes
  // (no cycles, no undefined or BigInt, no lone surrogates, bounded depth).
  object: (input) => {
    try {
      const text = JSON.stringify(input.value);
      return text === undefined ? notJson('the value is not JSON') : parseJson(text);
    } catch (error) {
      return notJson((error as Error).message);
    }
  },
};

export async function readCpr(input: ReadInput, settings: ReadSettings): Promise<Accepted | Rejection> {
  try {
    const loader = LOADERS[input?.kind] as Loader<ReadInput['kind']> | undefined;
    if (!loader) return reject('CPR_INVALID', 'This input is not a payment request: expected json, file, uri or object.');
    const loaded = await loader(input, settings);
    return loaded.ok ? accept(loaded.doc, settings.now()) : loaded;
  } catch (error) {
    // Never throw on bad input (PROFILE.md §8.3): anything unforeseen is still a rejection.
    return reject('CPR_INVALID', `This payment request could not be read: ${(error as Error)?.message ?? String(error)}.`);
  }
}

function parseJson(text: string | Uint8Array): Loaded {
  try {
    return { ok: true, doc: parseIJson(text) };
  } catch (error) {
    return notJson((error as Error).message);
  }
}

function notJson(detail: string): Rejection {
  return reject('CPR_INVALID', `This payment request is not valid JSON: ${detail}.`, {
    violations: [{ requirement: 'PRF-JSON-1', path: '', message: `is not I-JSON: ${detail}` }],
  });
}

async function loadFile(path: string, limit: number): Promise<Loaded> {
  let handle;
  try {
    handle = await open(path, 'r');
    const { size } = await handle.stat();
    if (size > limit) return reject('RETRIEVAL_FAILED', `The payment request file is larger than ${limit} bytes.`);
    return parseJson(new Uint8Array(await handle.readFile()));
  } catch (error) {
    return reject('RETRIEVAL_FAILED', `The payment request file could not be read: ${(error as Error).message}.`);
  } finally {
    await handle?.close();
  }
}

async function loadUri(uri: string, settings: ReadSettings): Promise<Loaded> {
  const parsed = parseDeliveryUri(uri);
  switch (parsed.kind) {
    case 'error':
      return reject('URI_INVALID', `This is not a payment request link: ${parsed.reason}.`);
    case 'inline':
      return parseJson(parsed.json);
    case 'token':
      return retrieveCpr(retrievalUrl(parsed.endpoint, parsed.token), settings);
  }
}
