// --baseline: the tests known to fail, from a report.json (its failed tests) or
// a YAML/JSON file `known_failures: [TEST-ID, ...]`. Every entry must name a test
// the suite has: a requirement ID is refused (a baseline lists tests, and a
// requirement's tests fail or pass one by one), and an ID no test has is a
// mistake in a hand-written list, a note for one taken from an older report.
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { findRequirement } from '../../profile/registry.ts';
import { HarnessError } from '../errors.ts';
import { readReport } from '../report/index.ts';
import { didYouMean } from '../text.ts';
import { suiteCatalogue } from './catalogue.ts';
import { PROPERTIES } from '../properties/catalogue.ts';
import { loadSuiteFile, loadSuites } from '../scenarios/load.ts';

export interface Baseline {
  readonly file: string;
  readonly knownFailures: readonly string[];
  /** Entries no test of this suite has (a report.json from another suite version, say). */
  readonly unknown: readonly string[];
}

export function readBaseline(file: string, scenarioFiles: readonly string[] = []): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `cannot read --baseline ${file}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = YAML.parse(text) as unknown;
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `--baseline ${file} is not YAML or JSON: ${(error as Error).message.split('\n')[0]}`, BASELINE_HINT);
  }
  const fromReport = data !== null && typeof data === 'object' && 'schema_version' in data;
  const ids = fromReport ? readReport(file).tests.filter((t) => t.status === 'failed').map((t) => t.id) : knownFailuresOf(file, data);

  const scenarios = [...loadSuites(), ...scenarioFiles.map((f) => loadSuiteFile(f))].flatMap((s) => s.scenarios);
  const tests = [...scenarios.map((s) => s.id), ...PROPERTIES.map((p) => p.id)];
  const known = new Set(tests);
  const requirements = ids.filter((id) => !known.has(id) && findRequirement(id) !== undefined);
  if (requirements.length > 0) {
    const catalogue = suiteCatalogue(scenarios);
    const covering = requirements.map((id) => `${id} is covered by ${(catalogue.get(id) ?? []).join(', ') || 'no test'}`).join('; ');
    throw new HarnessError('CONFIG_INVALID', `--baseline ${file} lists requirement ID(s), not test IDs: ${requirements.join(', ')}`, `list the failing tests instead (${covering})`);
  }
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0 && !fromReport) {
    const shown = unknown.slice(0, 10).map((id) => `${id}${didYouMean(id, tests)}`).join(', ');
    throw new HarnessError('CONFIG_INVALID', `--baseline ${file} lists ${unknown.length} ID(s) no scenario or property has: ${shown}${unknown.length > 10 ? ', ...' : ''}`, 'remove or correct them; cpr-conformance list shows the test IDs');
  }
  return { file, knownFailures: ids, unknown };
}

const BASELINE_HINT = 'give a report.json, or a file with known_failures: [TEST-ID, ...]';

function knownFailuresOf(file: string, data: unknown): string[] {
  const list = (data as { known_failures?: unknown } | null)?.known_failures;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) {
    throw new HarnessError('CONFIG_INVALID', `--baseline ${file} must be a report.json or hold known_failures: [test IDs]`, BASELINE_HINT);
  }
  return list as string[];
}
