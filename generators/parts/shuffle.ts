// Fisher–Yates driven by a small deterministic generator (xorshift32), so that
// one seed always gives the same order: a crash file or a replay that carries
// the seed shuffles the same way. Internal: not re-exported from generators/index.ts.

/** A shuffler for `seed`: each call draws on from one stream, so successive lists are shuffled differently. */
export function seededShuffler(seed: number): <T>(items: readonly T[]) => T[] {
  let state = (seed >>> 0) || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return <T>(items: readonly T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
}
