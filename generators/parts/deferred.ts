// Arbitraries built when first drawn from. Many generators are module-level
// constants, and fast-check builds an arbitrary when it is declared: parsing a
// pattern for fc.stringMatching, say, costs far more than drawing from the
// result. A command that imports the generators and draws from a few of them
// (a conformance run starts by loading every property) then paid for all at
// its start. `deferred` builds its arbitrary on the first draw; `matching` is
// fc.stringMatching built so, once per pattern.
import fc from 'fast-check';

class Deferred<T> extends fc.Arbitrary<T> {
  private built: fc.Arbitrary<T> | undefined;

  constructor(private readonly make: () => fc.Arbitrary<T>) {
    super();
  }

  private get arbitrary(): fc.Arbitrary<T> {
    this.built ??= this.make();
    return this.built;
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.arbitrary.generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arbitrary.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arbitrary.shrink(value, context);
  }
}

/** The arbitrary `make` builds, built on its first draw (or shrink) and kept. */
export function deferred<T>(make: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  return new Deferred(make);
}

const patterns = new Map<string, fc.Arbitrary<string>>();

/** fc.stringMatching(pattern), built on its first draw, once per pattern. */
export function matching(pattern: RegExp): fc.Arbitrary<string> {
  return deferred(() => {
    const key = String(pattern);
    let built = patterns.get(key);
    if (built === undefined) {
      built = fc.stringMatching(pattern);
      patterns.set(key, built);
    }
    return built;
  });
}
