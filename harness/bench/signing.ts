// Ed25519 sign and verify rates of node:crypto (what the project signs and
// verifies with) and @noble/ed25519 (its test oracle): the same keys, the same
// messages (the size of a signed cash-pack message), the same time each, in
// interleaved slices. Both sign deterministically (RFC 8032): their signatures
// are compared once, so the two are known to compute the same thing.
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { HarnessError } from '../errors.ts';

ed.hashes.sha512 = sha512;

export interface SigningRates {
  readonly nodeSignPerSecond: number;
  readonly nodeVerifyPerSecond: number;
  readonly nobleSignPerSecond: number;
  readonly nobleVerifyPerSecond: number;
  readonly messageBytes: number;
  readonly keys: number;
}

const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const KEYS = 8;
const MESSAGES = 32;
const MESSAGE_BYTES = 600;

interface Case {
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly privateObject: KeyObject;
  readonly publicObject: KeyObject;
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
}

/** `ms` for each of the four measurements. */
export function measureSigning(ms: number): SigningRates {
  const cases = fixedCases();
  const kinds = {
    nodeSign: (c: Case) => sign(null, c.message, c.privateObject),
    nobleSign: (c: Case) => ed.sign(c.message, c.seed),
    nodeVerify: (c: Case) => verify(null, c.message, c.publicObject, c.signature),
    nobleVerify: (c: Case) => ed.verify(c.signature, c.message, c.publicKey),
  } as const;
  type Kind = keyof typeof kinds;
  const count: Record<Kind, number> = { nodeSign: 0, nobleSign: 0, nodeVerify: 0, nobleVerify: 0 };
  const spent: Record<Kind, number> = { nodeSign: 0, nobleSign: 0, nodeVerify: 0, nobleVerify: 0 };
  const run = (kind: Kind, sliceMs: number, record: boolean) => {
    const op = kinds[kind];
    const started = performance.now();
    let n = 0;
    let i = 0;
    do {
      for (let k = 0; k < 8; k++) op(cases[i++ % cases.length]!);
      n += 8;
    } while (performance.now() - started < sliceMs);
    if (record) {
      count[kind] += n;
      spent[kind] += performance.now() - started;
    }
  };
  for (const kind of Object.keys(kinds) as Kind[]) run(kind, Math.min(100, ms / 4), false);
  const slices = Math.max(2, Math.round(ms / 250));
  for (let s = 0; s < slices; s++) for (const kind of Object.keys(kinds) as Kind[]) run(kind, ms / slices, true);
  const rate = (kind: Kind) => count[kind] / (spent[kind] / 1000);
  return {
    nodeSignPerSecond: rate('nodeSign'),
    nodeVerifyPerSecond: rate('nodeVerify'),
    nobleSignPerSecond: rate('nobleSign'),
    nobleVerifyPerSecond: rate('nobleVerify'),
    messageBytes: MESSAGE_BYTES,
    keys: KEYS,
  };
}

/** Keys and messages from a fixed derivation, so every run measures the same work. */
function fixedCases(): Case[] {
  const bytes = (label: string, length: number) => {
    const out = Buffer.alloc(length);
    for (let at = 0, block = 0; at < length; block++) at += createHash('sha256').update(`${label}/${block}`).digest().copy(out, at);
    return new Uint8Array(out);
  };
  const keys = Array.from({ length: KEYS }, (_, i) => {
    const seed = bytes(`bench-key-${i}`, 32);
    const privateObject = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    const publicObject = createPublicKey(privateObject);
    const publicKey = new Uint8Array(Buffer.from(publicObject.export({ format: 'jwk' }).x!, 'base64url'));
    return { seed, privateObject, publicObject, publicKey };
  });
  return Array.from({ length: MESSAGES }, (_, i) => {
    const key = keys[i % KEYS]!;
    const message = bytes(`bench-message-${i}`, MESSAGE_BYTES);
    const signature = new Uint8Array(sign(null, message, key.privateObject));
    if (Buffer.compare(Buffer.from(ed.sign(message, key.seed)), Buffer.from(signature)) !== 0) {
      throw new HarnessError('HARNESS_INTERNAL', 'node:crypto and @noble/ed25519 sign the same message differently: one of them is broken');
    }
    return { ...key, message, signature };
  });
}
