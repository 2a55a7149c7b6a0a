// The fault-switch ignorer (mutation/fault-switch-ignorer.js) on real syntax:
// which nodes of a reference source it ignores (the switch, its negation, the
// branch only the switch opens) and which it leaves to Stryker (the correct
// path beside it), for both switches: faults.has(NAME) and faults.hasAny(NAMES).
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { REASON, shouldIgnore } from '../../mutation/fault-switch-ignorer.js';

interface BabelNode {
  readonly start?: number | null;
  readonly end?: number | null;
}
interface NodePath {
  readonly node: BabelNode;
  readonly parent?: unknown;
  readonly key?: unknown;
}
/** Babel as Stryker runs it (a dependency of Stryker's; the project has no types for it). */
const babel = createRequire(import.meta.url)('@babel/core') as {
  parseSync(code: string, options: object): unknown;
  traverse(ast: unknown, visitor: { enter(path: NodePath): void }): void;
};

/** The source text of every node the ignorer ignores in `code`, outermost first (nested nodes of an ignored one included). */
function ignoredIn(code: string): string[] {
  const ast = babel.parseSync(code, { filename: 'x.ts', presets: ['@babel/preset-typescript'], babelrc: false, configFile: false })!;
  const ignored: string[] = [];
  babel.traverse(ast, {
    enter(path: NodePath) {
      const reason = shouldIgnore(path);
      if (reason === undefined) return;
      expect(reason).toBe(REASON);
      ignored.push(code.slice(path.node.start!, path.node.end!));
    },
  });
  return ignored;
}

describe('the fault-switch ignorer', () => {
  it.each([
    ['has', "const serve = ctx.faults.has('op-x') ? faulty(ctx) : handler;", ["ctx.faults.has('op-x')", 'faulty(ctx)']],
    ['hasAny', 'const serve = faults.hasAny(OPERATOR_FAULTS) ? faultyOperator(ctx, handler) : handler;', ['faults.hasAny(OPERATOR_FAULTS)', 'faultyOperator(ctx, handler)']],
    ['hasAny in an if', 'if (settings.faults?.hasAny(NAMES)) { open(); }', ['settings.faults?.hasAny(NAMES)', '{ open(); }']],
    ['a negated switch', "if (!faults.has('op-x')) check();", ["!faults.has('op-x')", "faults.has('op-x')"]],
    ['a switch && more', "const x = faults.hasAny(NAMES) && ready ? a : b;", ['faults.hasAny(NAMES) && ready', 'faults.hasAny(NAMES)', 'a']],
  ])('ignores %s and only what it opens', (_name, code, expected) => {
    const ignored = ignoredIn(code);
    for (const text of expected) expect(ignored).toContain(text);
    // The correct path beside the switch is mutated as usual.
    expect(ignored).not.toContain('handler');
    expect(ignored).not.toContain('b');
  });

  it('leaves any other has() and a switch of another object alone', () => {
    expect(ignoredIn('const a = names.has(x) ? one : two; const b = faults.hasOwnProperty(x) ? one : two; const c = faults.any(x) ? one : two;')).toEqual([]);
  });
});

describe('the Stryker configuration', () => {
  it('leaves out every file of reference/faults/: only a fuzzer mutant reaches them', async () => {
    const config = ((await import(new URL('../../stryker.config.mjs', import.meta.url).href)) as { default: { mutate: string[] } }).default;
    const faults = readdirSync(new URL('../../reference/faults/', import.meta.url)).filter((f) => f.endsWith('.ts'));
    expect(faults.length).toBeGreaterThan(0);
    for (const file of faults) expect(config.mutate, file).toContain(`!reference/faults/${file}`);
  });
});
