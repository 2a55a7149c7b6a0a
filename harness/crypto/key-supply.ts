// Fresh Ed25519 keys made ahead, on a thread of their own at the lowest
// priority. A run makes about 800 fresh keys (bearers, Principals, redeemers)
// and a fuzzing campaign about a thousand a second: each is an import of a
// random seed, in which OpenSSL derives the public key, and an export of that
// key, about 70 µs of the harness's own thread when it makes them itself. The
// supply's thread makes them in batches while the harness waits on the target
// (at nice 19 it yields to every other thread of the process: pinned to the
// harness's one CPU, as the benchmark does, it runs in that CPU's idle time)
// and hands over each key's seed, public key and key object (a KeyObject
// crosses threads by reference). When the pool is empty the key is made in the
// calling thread, as without a supply; keys with a seed are never supplied.
import { Worker } from 'node:worker_threads';
import { setFreshKeySource, type SuppliedKey } from '../../profile/ed25519.ts';

/** Keys asked for at a time. */
const BATCH = 128;
/** The next batch is asked for when the pool is down to this many. */
const LOW = 64;

// The thread's code, evaluated (it loads nothing but node's own modules). Its
// keys are made as profile/ed25519.ts makes its own: the seed imported as a
// private JWK (x unused: OpenSSL derives it), then exported for x.
const THREAD = `
const { parentPort } = require('node:worker_threads');
const { createPrivateKey, randomFillSync } = require('node:crypto');
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, 19);
} catch {}
const UNUSED_X = 'A'.repeat(43);
parentPort.on('message', (count) => {
  const seeds = randomFillSync(Buffer.alloc(32 * count));
  const keys = [];
  for (let i = 0; i < count; i++) {
    const seed = new Uint8Array(seeds.subarray(32 * i, 32 * (i + 1)));
    const key = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: Buffer.from(seed).toString('base64url'), x: UNUSED_X }, format: 'jwk' });
    keys.push({ seed, x: key.export({ format: 'jwk' }).x, key });
  }
  parentPort.postMessage(keys);
});
`;

let supplying = false;
let handedOut = 0;

/** Keys handed out from the supply so far (the rest were made by their caller). */
export function suppliedKeys(): number {
  return handedOut;
}

/**
 * From now on, generateKeyPair() without a seed takes its key from the supply;
 * the thread starts at the first such call. It never keeps the process alive;
 * a second call changes nothing.
 * A supply that fails (no worker threads here, say) is dropped: keys are then
 * made in the calling thread.
 */
export function supplyFreshKeys(): void {
  if (supplying) return;
  supplying = true;
  const pool: SuppliedKey[] = [];
  let thread: Worker | undefined;
  let asked = false;
  const ask = () => {
    if (asked) return;
    asked = true;
    if (thread === undefined) {
      thread = new Worker(THREAD, { eval: true });
      thread.unref();
      thread.on('message', (keys: SuppliedKey[]) => {
        pool.push(...keys);
        asked = false;
      });
      thread.once('error', () => setFreshKeySource(undefined));
    }
    thread.postMessage(BATCH);
  };
  setFreshKeySource(() => {
    if (pool.length <= LOW) ask();
    const key = pool.pop();
    if (key !== undefined) handedOut += 1;
    return key;
  });
}
