// Which tests killed each mutant in the last full kill matrix, cheapest first
// (suites/killers.json, written by `selftest --write-killers FILE`). A targeted
// selftest runs a mutant's recorded killers before its other tests, so that most
// mutants are decided by their first test rather than after every scenario of a
// requirement many tests judge. The record orders, it never decides: a stale
// entry (a test renamed, a fault changed) only costs time, since every test of
// the targeted plan still runs until one kills the mutant by a requirement it
// declares, and a mutant with no entry runs as it did without the record.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { testId, type PlanTest } from '../runner/plan.ts';
import { PROJECT_ROOT } from '../scenarios/load.ts';
import type { KillMatrix } from './matrix.ts';

/** The committed record. */
const KILLERS_FILE = join(PROJECT_ROOT, 'suites', 'killers.json');
const KILLERS_FORMAT = 'cpr-conformance-killers/1';
/** Killers kept per mutant: the cheapest few are enough to decide almost every one. */
const KEPT = 3;

interface KillersTable {
  readonly format: typeof KILLERS_FORMAT;
  readonly note: string;
  /** Mutant name -> the IDs of tests that killed it, cheapest first. */
  readonly mutants: Readonly<Record<string, readonly string[]>>;
}

const HINT = 'write it again with: cpr-conformance selftest --write-killers suites/killers.json (the full matrix)';

/** The record at `file` (the committed one by default): mutant name -> test IDs; none when the file is absent. */
export function loadKillers(file: string = KILLERS_FILE): ReadonlyMap<string, readonly string[]> {
  if (!existsSync(file)) return new Map();
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `cannot read the killers record ${file}: ${(error as Error).message}`, HINT);
  }
  const table = data as Partial<KillersTable> | null;
  if (table?.format !== KILLERS_FORMAT || typeof table.mutants !== 'object' || table.mutants === null || Array.isArray(table.mutants)) {
    throw new HarnessError('CONFIG_INVALID', `${file} is no killers record ("format": "${KILLERS_FORMAT}", "mutants": { name: [test IDs] })`, HINT);
  }
  const killers = new Map<string, readonly string[]>();
  for (const [name, tests] of Object.entries(table.mutants)) {
    if (!Array.isArray(tests) || !tests.every((t) => typeof t === 'string')) throw new HarnessError('CONFIG_INVALID', `${file}: "mutants.${name}" must be a list of test IDs`, HINT);
    killers.set(name, tests as string[]);
  }
  return killers;
}

/**
 * The record of a full matrix: for each mutant killed by a requirement it
 * declares, the tests that failed against it among those a targeted selftest
 * runs for it (`plannedFor`), cheapest first by `ms`, at most three.
 */
export function killersOf(matrix: KillMatrix, plannedFor: (catches: readonly string[]) => readonly PlanTest[], ms: ReadonlyMap<string, number>): Record<string, string[]> {
  if (matrix.targeted) throw new RangeError('a targeted selftest stops at the first kill: only the full matrix says which tests kill');
  const record: Record<string, string[]> = {};
  for (const row of matrix.mutants) {
    if (!row.killed || row.flagged !== null) continue;
    const planned = new Set(plannedFor(row.catches).map(testId));
    const tests = row.failed_tests.filter((id) => planned.has(id));
    tests.sort((a, b) => (ms.get(a) ?? Infinity) - (ms.get(b) ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0));
    if (tests.length > 0) record[row.name] = tests.slice(0, KEPT);
  }
  return record;
}

/** Writes the record (`selftest --write-killers FILE`). */
export function writeKillers(file: string, record: Readonly<Record<string, readonly string[]>>, command: readonly string[]): void {
  const table: KillersTable = {
    format: KILLERS_FORMAT,
    note: `For each mutant, the tests that killed it in the last full kill matrix, cheapest first: a targeted selftest runs them before its other tests. An order only; a stale entry costs time, never a verdict. Written by: ${command.join(' ')}`,
    mutants: Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  try {
    writeFileSync(file, `${JSON.stringify(table, null, 2)}\n`);
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `--write-killers ${file}: ${(error as Error).message}`, 'give a file in a folder that exists and can be written');
  }
}

/**
 * The stages of a targeted selftest's mutant, each run only when those before it
 * did not kill it by a requirement it declares: its recorded killers that are
 * still in its plan; then its other scenarios; then its other properties (each
 * the work of many scenarios). Empty stages are left out; every test of the plan
 * is in exactly one stage.
 */
export function targetedStages(plan: readonly PlanTest[], killers: readonly string[] = []): PlanTest[][] {
  const byId = new Map(plan.map((t) => [testId(t), t]));
  const first = [...new Set(killers)].flatMap((id) => byId.get(id) ?? []);
  const rest = plan.filter((t) => !first.includes(t));
  return [first, rest.filter((t) => t.kind === 'scenario'), rest.filter((t) => t.kind === 'property')].filter((stage) => stage.length > 0);
}
