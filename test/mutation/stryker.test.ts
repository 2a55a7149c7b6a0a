// Mutation testing's own check (README "Mutation testing"): the Stryker
// configuration loads, and a mutation run over a few lines of one reference file,
// with the conformance tests those lines need, completes and kills its mutants.
// The whole campaign (`npm run mutation`) takes hours and is not run here; this
// check takes minutes, so npm test leaves it out and .ci/run runs it
// (CPR_MUTATION_CHECK=1, vitest.config.ts).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Stryker } from '@stryker-mutator/core';
import { describe, expect, it } from 'vitest';

type PartialStrykerOptions = ConstructorParameters<typeof Stryker>[0];
type MutantResult = Awaited<ReturnType<Stryker['runMutationTest']>>[number];

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const load = async <T>(path: string): Promise<T> => ((await import(pathToFileURL(`${ROOT}${path}`).href)) as { default: T }).default;
import { REASON as FAULT_SWITCH } from '../../mutation/fault-switch-ignorer.js';
import { REASON as FREE_TEXT } from '../../mutation/free-text-ignorer.js';

describe('the Stryker configuration', () => {
  it('mutates the reference but its hand-made faults and test control, each exclusion an existing file', async () => {
    const config = await load<PartialStrykerOptions>('stryker.config.mjs');
    const mutate = (config.mutate ?? []) as readonly string[];
    expect(mutate[0]).toBe('reference/**/*.ts');
    const excluded = mutate.filter((m) => m.startsWith('!')).map((m) => m.slice(1));
    expect(excluded).toEqual(expect.arrayContaining(['reference/mutants.ts', 'reference/control.ts', 'reference/operator/control.ts']));
    for (const file of excluded) expect(existsSync(`${ROOT}${file}`), file).toBe(true);
    expect(config.coverageAnalysis).toBe('perTest');
    expect(config.incremental).toBe(true);
  });

  it('names an ignorer that its plugin file provides', async () => {
    const config = await load<PartialStrykerOptions>('stryker.config.mjs');
    const local = ((config.plugins ?? []) as readonly string[]).filter((p) => p.startsWith('./'));
    const provided = (await Promise.all(local.map(async (p) => ((await import(pathToFileURL(`${ROOT}${p}`).href)) as { strykerPlugins: { kind: string; name: string }[] }).strykerPlugins))).flat();
    expect(config.ignorers).toEqual(provided.filter((p) => p.kind === 'Ignore').map((p) => p.name));
  });
});

/** The lines of `file` from the first that includes `from` to the first after it that includes `to` (found, not hard-coded: the files move). */
function linesOf(file: string, from: string, to: string = from): string {
  const lines = readFileSync(`${ROOT}${file}`, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.includes(from));
  const end = lines.findIndex((l, i) => i >= start && l.includes(to));
  if (start < 0 || end < 0) throw new Error(`${file} no longer has the lines the check mutates (${from} ... ${to})`);
  return `${file}:${start + 1}-${end + 1}`;
}

/**
 * The payee token store's expiry check (beside a fault switch), and the
 * refusal of a token sent in the clear with a problem: ten mutants, each
 * costing a run of the tests that reach it (some six seconds), where the whole
 * peek has twenty-three.
 */
const EXPIRED = linesOf('reference/payee/tokens.ts', "if (now >= entry.expiresAt && !this.faults.has('payee-token-never-expires'))");
const TLS_REFUSAL = linesOf('reference/payee/handler.ts', "problemResponse('TLS_REQUIRED'");

describe('a mutation run over the payee token store\'s expiry check and its refusal in the clear', () => {
  it('completes, kills every mutant of the lines, and ignores the fault switches and the free text among them', async () => {
    // Only the retrieval-token scenarios run (CPR_MUTATION_ONLY reaches Stryker's test runner through the environment).
    process.env['CPR_MUTATION_ONLY'] = 'TOK-';
    let results: MutantResult[];
    try {
      results = await new Stryker({
        configFile: `${ROOT}stryker.config.mjs`,
        mutate: [EXPIRED, TLS_REFUSAL],
        incremental: false,
        // The type check of every mutant costs more than the run; the campaign has it.
        checkers: [],
        reporters: [],
        concurrency: 1,
        logLevel: 'error' as PartialStrykerOptions['logLevel'],
        fileLogLevel: 'off' as PartialStrykerOptions['logLevel'],
      }).runMutationTest();
    } finally {
      delete process.env['CPR_MUTATION_ONLY'];
    }
    const byStatus = (status: string) => results.filter((m) => m.status === status);
    // Ignored: the fault switches, and the equivalents marked where they stand, each with its reason.
    const ignored = byStatus('Ignored');
    expect(ignored.filter((m) => m.statusReason === FAULT_SWITCH).length).toBeGreaterThan(0);
    // The problem's detail is free text; its code is mutated and killed like any other value.
    const refusal = results.filter((m) => m.fileName.endsWith('handler.ts'));
    expect(refusal.filter((m) => m.statusReason === FREE_TEXT).length).toBeGreaterThan(0);
    expect(refusal.filter((m) => m.replacement === '""' && m.status === 'Killed').length).toBeGreaterThan(0);
    for (const m of ignored) expect(m.statusReason, `line ${m.location.start.line}`).toMatch(/\w{3,}/);
    const others = results.filter((m) => m.status !== 'Ignored').map((m) => `${m.location.start.line}:${m.location.start.column} ${m.mutatorName} ${m.replacement ?? ''} ${m.status}`);
    expect(others.length).toBeGreaterThanOrEqual(8);
    expect(others.filter((m) => !m.endsWith(' Killed'))).toEqual([]);
  }, 600_000);
});
