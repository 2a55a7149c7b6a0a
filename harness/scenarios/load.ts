// Loads and validates scenario files (suites/*/**/*.yaml): YAML syntax, the
// scenario schema, then what a schema cannot say (registry IDs exist, scenario IDs
// are unique, capabilities are declared, names are captured before use). Every
// problem is a SCENARIO_INVALID error naming the file, line and reason.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import YAML, { LineCounter, isMap, isSeq, type Document, type Node } from 'yaml';
import { loadRegistry, REGISTRY_FILES, sectionsOfAll } from '../../profile/registry.ts';
import { keptInBuild } from '../bundle.ts';
import { HarnessError } from '../errors.ts';
import { scenarioSchema } from './schema.ts';
import { referencedNames } from './template.ts';
import type { CheckEntry, Scenario, Step, Suite } from './types.ts';
import { ACTIONS, CHECKS, setupRequirementOf, type ActionName, type CheckName } from './vocabulary.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SUITES_DIR = join(PROJECT_ROOT, 'suites');

let validator: ValidateFunction | undefined;

/**
 * The scenario schema, compiled on first use (as profile/registry.ts does): a
 * command that loads no suite never pays for it. Without ajv's optimisation
 * passes over the generated code: a cold run compiles it once and validates
 * two dozen files with it, and the passes took about half the compile time.
 */
function schemaValidator(): ValidateFunction {
  validator ??= new Ajv2020.default({ allErrors: true, strict: false, code: { optimize: false } }).compile(scenarioSchema());
  return validator;
}

/** Every scenario file under suites/ (the registry beside them is not one). */
export function suiteFiles(dir = SUITES_DIR): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path, depth + 1);
      else if (depth > 0 && /\.ya?ml$/.test(name)) out.push(path);
    }
  };
  walk(dir, 0);
  return out;
}

/**
 * The suites of `files`, checked across files too (unique scenario IDs). A
 * command running from the launcher's build loads and validates a set of files
 * once: the next reads what it found, as long as no file (nor the requirement
 * registry) changed (profile/build.ts keptInBuild).
 */
export function loadSuites(files: readonly string[] = suiteFiles()): Suite[] {
  return keptInBuild('suites', [...files, ...REGISTRY_FILES], () => checkedAcross(files.map((f) => loadSuiteFile(f))));
}

function checkedAcross(suites: Suite[]): Suite[] {
  const seen = new Map<string, Scenario>();
  for (const scenario of suites.flatMap((s) => s.scenarios)) {
    const first = seen.get(scenario.id);
    if (first) fail(scenario.file, scenario.line, `scenario id ${scenario.id} is already used at ${first.file}:${first.line}`);
    seen.set(scenario.id, scenario);
  }
  return suites;
}

export function loadSuiteFile(path: string): Suite {
  const text = readFileSync(path, 'utf8');
  return parseSuite(text, relative(PROJECT_ROOT, path) || path);
}

export function parseSuite(text: string, file: string): Suite {
  const lineCounter = new LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number | undefined) => (offset === undefined ? { line: 1, col: 1 } : lineCounter.linePos(offset));
  const firstError = doc.errors[0];
  if (firstError) {
    const { line, col } = at(firstError.pos[0]);
    fail(file, line, `YAML: ${firstError.message.split('\n')[0]}`, col);
  }
  const data = doc.toJS() as unknown;
  const crowded = crowdedCheck(data);
  if (crowded) {
    const { line, col } = at(nodeAt(doc, crowded.path)?.range?.[0]);
    fail(file, line, `one expect entry holds ${crowded.names.length === 0 ? 'no named check' : `${crowded.names.length} checks (${crowded.names.join(', ')})`}; give each check its own entry`, col);
  }
  const validate = schemaValidator();
  if (!validate(data)) {
    const error = mostSpecific(validate.errors ?? []);
    // An unknown key is shown where it is written, not where its object starts.
    const extra = error.keyword === 'additionalProperties' ? [(error.params as { additionalProperty: string }).additionalProperty] : [];
    const node = nodeAt(doc, [...pathOf(error.instancePath), ...extra]) ?? nodeAt(doc, error.instancePath);
    const { line, col } = at(node?.range?.[0]);
    fail(file, line, describe(error), col);
  }
  const lineOf = (path: (string | number)[]) => at(nodeAt(doc, path)?.range?.[0]).line;
  return toSuite(data as RawSuite, file, lineOf);
}

interface RawSuite {
  suite: string;
  title: string;
  sections: string[];
  role: Scenario['role'];
  info?: string;
  reproduces?: false;
  scenarios: RawScenario[];
}
type RawScenario = Omit<Scenario, 'steps' | 'file' | 'line' | 'sections' | 'suite' | 'role' | 'needs'> & {
  role?: Scenario['role'];
  needs?: Scenario['needs'];
  steps: Record<string, unknown>[];
};

function toSuite(raw: RawSuite, file: string, lineOf: (path: (string | number)[]) => number): Suite {
  const registry = new Map(loadRegistry().map((r) => [r.id, r]));
  const scenarios = raw.scenarios.map((s, i): Scenario => {
    const where = (path: (string | number)[]) => lineOf(['scenarios', i, ...path]);
    for (const [j, id] of s.requirements.entries()) {
      const r = registry.get(id);
      if (!r || r.retired) fail(file, where(['requirements', j]), `requirement ${id} is not in suites/requirements.yaml${r ? ' (retired)' : ''}`);
    }
    const steps = s.steps.map((raw, k) => toStep(raw, k, `${k + 1}`, (path) => where(['steps', k, ...path]), (line, reason) => fail(file, line, `${s.id}: ${reason}`)));
    const scenario: Scenario = {
      ...(usesName(steps, 'policy') ? { readsPolicy: true } : {}),
      id: s.id,
      title: s.title,
      requirements: s.requirements,
      level: s.level,
      role: s.role ?? raw.role,
      needs: s.needs ?? [],
      ...(s.adapters ? { adapters: s.adapters } : {}),
      ...(s.info ? { info: s.info } : {}),
      steps,
      file,
      line: where([]),
      // The scenario's own sections: those its requirements restate, not the whole file's.
      sections: sectionsOfAll(s.requirements.map((id) => registry.get(id)!)),
      suite: raw.suite,
    };
    checkSemantics(scenario, registry, file);
    return scenario;
  });
  return { file, suite: raw.suite, title: raw.title, sections: raw.sections, role: raw.role, ...(raw.info ? { info: raw.info } : {}), ...(raw.reproduces === false ? { reproduces: false as const } : {}), scenarios };
}

function toStep(raw: Record<string, unknown>, index: number, label: string, lineOf: (path: (string | number)[]) => number, invalid: (line: number, reason: string) => never): Step {
  const { do: action, as, expect, setup, note: _note, ...params } = raw;
  const checks = ((expect as Record<string, unknown>[] | undefined) ?? []).map((entry, i): CheckEntry => {
    const { on, requirement, note: _n, ...rest } = entry;
    const [name, arg] = Object.entries(rest)[0] as [CheckName, unknown];
    return {
      name,
      arg,
      ...(on !== undefined ? { on } : {}),
      ...(requirement !== undefined ? { requirement: requirement as string } : {}),
      line: lineOf(['expect', i]),
    };
  });
  const name = action as ActionName;
  let setupRequirement: string | undefined;
  if (setup !== undefined) {
    setupRequirement = setup === true ? setupRequirementOf(name) : (setup as string);
    if (setupRequirement === undefined) invalid(lineOf(['setup']), `a ${name} step has no requirement of its own: write the one its checks prove (setup: REQUIREMENT-ID)`);
    if (checks.length === 0) invalid(lineOf(['setup']), 'a setup step without expect proves nothing: give it the check that the setup worked, or drop "setup"');
  }
  let body: Step[] | undefined;
  if (name === 'repeat') {
    const { steps, ...rest } = params as { steps: Record<string, unknown>[] };
    body = steps.map((nested, k) => toStep(nested, k, `${label}.${k + 1}`, (path) => lineOf(['steps', k, ...path]), invalid));
    return { index, label, action: name, params: rest, ...(as !== undefined ? { as: as as string } : {}), expect: checks, body, line: lineOf([]) };
  }
  return {
    index,
    label,
    action: name,
    params,
    ...(as !== undefined ? { as: as as string } : {}),
    expect: checks,
    ...(setupRequirement !== undefined ? { setup: setupRequirement } : {}),
    line: lineOf([]),
  };
}

/**
 * Names every scenario starts with: the target's clock, the current step's
 * result, and the Operator Policy Document (read before the first step when a
 * template uses it).
 */
const BUILTIN_NAMES = new Set(['now', 'res', 'policy']);
/** The iteration index inside a repeat. */
const LOOP_NAME = 'i';
/** Parameters that name a key (defined by keygen or provision-*). */
const KEY_PARAMS = new Set(['principal', 'bearer', 'new_bearer', 'redeemer', 'key', 'sign_as', 'identify_as']);

function checkSemantics(scenario: Scenario, registry: ReadonlyMap<string, unknown>, file: string): void {
  const all = flatSteps(scenario.steps);
  if (!all.some((s) => s.expect.length > 0)) fail(file, scenario.line, `${scenario.id} checks nothing: a scenario needs at least one expect`);
  for (const step of all) {
    if (step.setup !== undefined && !registry.has(step.setup)) fail(file, step.line, `${scenario.id}: setup requirement ${step.setup} is not in suites/requirements.yaml`);
  }
  checkNames(scenario, scenario.steps, new Set<string>(BUILTIN_NAMES), registry, file);
}

/** Whether any template of these steps reads `name` at its root. */
function usesName(steps: readonly Step[], name: string): boolean {
  // A template that does not parse is reported by checkSemantics, with its line.
  const names = (text: string) => {
    try {
      return referencedNames(text);
    } catch {
      return [];
    }
  };
  const found = (value: unknown): boolean =>
    typeof value === 'string' ? value.includes('${') && names(value).includes(name) : Array.isArray(value) ? value.some(found) : value !== null && typeof value === 'object' ? Object.values(value).some(found) : false;
  return flatSteps(steps).some((s) => found(s.params) || s.expect.some((c) => found(c.arg) || found(c.on)));
}

/** Whether a scenario has a step that does `action` (inside repeats too). */
export function usesAction(scenario: Scenario, action: ActionName): boolean {
  return flatSteps(scenario.steps).some((s) => s.action === action);
}

/** Every step, those inside repeats included. */
export function flatSteps(steps: readonly Step[]): Step[] {
  return steps.flatMap((s) => [s, ...flatSteps(s.body ?? [])]);
}

/** Names are captured before they are read; keys are made before they are used (a templated key name is checked when it runs). */
function checkNames(scenario: Scenario, steps: readonly Step[], defined: Set<string>, registry: ReadonlyMap<string, unknown>, file: string): void {
  for (const step of steps) {
    const spec = ACTIONS[step.action];
    if ('capability' in spec && !scenario.needs.includes(spec.capability)) {
      fail(file, step.line, `${scenario.id}: step "${step.action}" needs the "${spec.capability}" capability; add it to the scenario's needs`);
    }
    // A cancellation released with others in a parallel step needs what a cancel step does.
    if (step.action === 'parallel' && Array.isArray(step.params.steps) && step.params.steps.some((s) => (s as { do?: unknown } | null)?.do === 'cancel') && !scenario.needs.includes('cancel')) {
      fail(file, step.line, `${scenario.id}: a parallel step that cancels needs the "cancel" capability; add it to the scenario's needs`);
    }
    for (const [param, value] of Object.entries(step.params)) {
      if (KEY_PARAMS.has(param) && typeof value === 'string' && !value.includes('${') && !defined.has(value) && step.action !== 'keygen' && step.action !== 'credential' && !step.action.startsWith('provision-')) {
        fail(file, step.line, `${scenario.id}: key "${value}" (${param}) is not defined yet; create it with keygen or provision-* first`);
      }
    }
    undefinedNames(
      step.params,
      defined,
      (name) => fail(file, step.line, `${scenario.id}: \${${name}} is not defined at this step; capture it with "as:" first`),
      (message) => fail(file, step.line, `${scenario.id}: ${message}`),
    );
    if (step.action === 'keygen') for (const n of step.params.names as string[]) defined.add(n);
    if (step.action.startsWith('provision-') || step.action === 'credential') defined.add(step.params.key as string);
    if (step.action === 'let') for (const n of Object.keys(step.params.values as object)) defined.add(n);
    if (step.body) {
      // Inside, `i` is the iteration; what the body captures is seen after the loop too.
      const inner = new Set([...defined, LOOP_NAME]);
      checkNames(scenario, step.body, inner, registry, file);
      for (const n of inner) if (n !== LOOP_NAME) defined.add(n);
    }
    if (step.as) defined.add(step.as);
    for (const check of step.expect) {
      if (check.requirement && !registry.has(check.requirement)) fail(file, check.line, `requirement ${check.requirement} is not in suites/requirements.yaml`);
      const pattern = check.name === 'matches' ? (check.arg as { pattern?: unknown } | undefined)?.pattern : undefined;
      if (typeof pattern === 'string' && !pattern.includes('${')) {
        try {
          new RegExp(pattern, 'u');
        } catch (error) {
          fail(file, check.line, `${scenario.id}: matches: the pattern does not compile (${(error as Error).message})`);
        }
      }
      undefinedNames(
        [check.arg, check.on],
        defined,
        (name) => fail(file, check.line, `${scenario.id}: \${${name}} is not defined at this check`),
        (message) => fail(file, check.line, `${scenario.id}: ${message}`),
      );
    }
  }
}

function undefinedNames(value: unknown, defined: ReadonlySet<string>, report: (name: string) => never, invalid: (message: string) => never): void {
  if (typeof value === 'string') {
    let names: string[];
    try {
      names = referencedNames(value);
    } catch (error) {
      invalid((error as Error).message);
    }
    for (const name of names) if (!defined.has(name)) report(name);
  } else if (Array.isArray(value)) {
    for (const v of value) undefinedNames(v, defined, report, invalid);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) undefinedNames(v, defined, report, invalid);
  }
}

/** An expect entry must name exactly one check; ajv's oneOf error for this is unreadable. */
function crowdedCheck(data: unknown): { path: (string | number)[]; names: string[] } | undefined {
  const scenarios = (data as { scenarios?: unknown })?.scenarios;
  if (!Array.isArray(scenarios)) return undefined;
  for (const [i, scenario] of scenarios.entries()) {
    const steps = (scenario as { steps?: unknown })?.steps;
    if (!Array.isArray(steps)) continue;
    for (const [j, step] of steps.entries()) {
      const expect = (step as { expect?: unknown })?.expect;
      if (!Array.isArray(expect)) continue;
      for (const [k, entry] of expect.entries()) {
        if (typeof entry !== 'object' || entry === null) continue;
        const names = Object.keys(entry).filter((key) => key in CHECKS);
        if (names.length !== 1) return { path: ['scenarios', i, 'steps', j, 'expect', k], names };
      }
    }
  }
  return undefined;
}

function fail(file: string, line: number, reason: string, col?: number): never {
  throw new HarnessError('SCENARIO_INVALID', `${file}:${line}${col ? `:${col}` : ''}: ${reason}`, 'see suites/README.md for the scenario format');
}

function pathOf(instancePath: string): (string | number)[] {
  return instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

function nodeAt(doc: Document, path: string | (string | number)[]): Node | undefined {
  const segments = typeof path === 'string' ? pathOf(path) : path;
  let node: unknown = doc.contents;
  for (const seg of segments) {
    if (isMap(node)) node = node.get(seg, true);
    else if (isSeq(node)) node = node.get(seg as number, true);
    else return undefined;
  }
  return (node ?? undefined) as Node | undefined;
}

/** Of ajv's errors (if/then and oneOf produce several), the deepest, most telling one. */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject {
  const rank = (e: ErrorObject) => ['additionalProperties', 'required', 'enum', 'const', 'pattern', 'type'].indexOf(e.keyword);
  return [...errors].sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length || score(rank(a)) - score(rank(b)))[0]!;
  function score(r: number) {
    return r < 0 ? 99 : r;
  }
}

function describe(e: ErrorObject): string {
  const where = e.instancePath ? `${e.instancePath.slice(1).replaceAll('/', '.')}: ` : '';
  switch (e.keyword) {
    case 'additionalProperties':
      return `${where}unknown key "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    case 'required':
      return `${where}missing "${(e.params as { missingProperty: string }).missingProperty}"`;
    case 'enum':
      return `${where}must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'oneOf':
      return `${where}must be exactly one named check (${Object.keys(CHECKS).join(', ')}) or a valid value for it`;
    default:
      return `${where}${e.message ?? e.keyword}`;
  }
}
