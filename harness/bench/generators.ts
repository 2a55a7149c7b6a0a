// Generator throughput: fast-check samples of validCpr() and brokenCpr() per
// second, in alternating slices so that machine noise hits both alike.
import fc from 'fast-check';
import { brokenCpr, validCpr } from '../../generators/index.ts';

export interface GeneratorRates {
  readonly validPerSecond: number;
  readonly brokenPerSecond: number;
  readonly valid: number;
  readonly broken: number;
}

const BATCH = 50;

/** `ms` of sampling for each arbitrary, after a short warm-up. */
export function measureGenerators(ms: number, seed: number): GeneratorRates {
  const arbitraries = { valid: validCpr(), broken: brokenCpr() };
  const count = { valid: 0, broken: 0 };
  const spent = { valid: 0, broken: 0 };
  let s = seed;
  const sampleFor = (kind: 'valid' | 'broken', sliceMs: number) => {
    const started = performance.now();
    let n = 0;
    while (performance.now() - started < sliceMs) n += fc.sample(arbitraries[kind] as fc.Arbitrary<unknown>, { numRuns: BATCH, seed: s++ }).length;
    return { n, elapsed: performance.now() - started };
  };
  sampleFor('valid', Math.min(200, ms / 4));
  sampleFor('broken', Math.min(200, ms / 4));
  const slices = Math.max(2, Math.round(ms / 500));
  for (let i = 0; i < slices; i++) {
    for (const kind of ['valid', 'broken'] as const) {
      const { n, elapsed } = sampleFor(kind, ms / slices);
      count[kind] += n;
      spent[kind] += elapsed;
    }
  }
  return { validPerSecond: count.valid / (spent.valid / 1000), brokenPerSecond: count.broken / (spent.broken / 1000), valid: count.valid, broken: count.broken };
}
