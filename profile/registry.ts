// The requirement registry (suites/requirements.yaml), validated against its own
// schema (suites/requirements.schema.json): spec content is data (STYLE.md §1).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { keptInBuild } from './build.ts';
import { deepFreeze } from './freeze.ts';

const REGISTRY_URL = new URL('../suites/requirements.yaml', import.meta.url);
const SCHEMA_URL = new URL('../suites/requirements.schema.json', import.meta.url);
const REGISTRY_NAME = 'suites/requirements.yaml';
/** The files the registry is read from: what depends on the registry depends on them. */
export const REGISTRY_FILES: readonly string[] = [fileURLToPath(REGISTRY_URL), fileURLToPath(SCHEMA_URL)];

/** Key words of the spec, plus PROFILE for a choice of PROFILE.md. */
export const LEVELS = ['MUST', 'SHOULD', 'MAY', 'PROFILE'] as const;
export type Level = (typeof LEVELS)[number];

export const ROLES = ['payee', 'paying-app', 'operator'] as const;
export type Role = (typeof ROLES)[number];

/** Report groupings; must equal the schema's `family` enum. */
export const FAMILIES = [
  'cpr-structure',
  'sub-interfaces',
  'delivery',
  'retrieval-token',
  'derivation',
  'cashpack-endpoints',
  'cashpack-crypto',
  'cashpack-errors',
  'cashpack-lifecycle',
  'robustness',
  'encoding',
  'test-control',
] as const;
export type Family = (typeof FAMILIES)[number];

export interface Requirement {
  readonly id: string;
  readonly sections: readonly string[];
  readonly level: Level;
  readonly roles: readonly Role[];
  readonly summary: string;
  readonly family: Family;
  readonly profile_sections?: readonly string[];
  readonly retired?: boolean;
  readonly notes?: string;
  /** The part no test can observe from outside; reports say so. */
  readonly unverifiable?: string;
}

/**
 * The sections a requirement restates, as reports name them: the spec's
 * ("§4.7.3"), then PROFILE.md's ("PROFILE §5"); a PROFILE-level requirement
 * names only PROFILE.md's.
 */
export function sectionsOf(r: Requirement): string[] {
  const profile = (r.profile_sections ?? []).map((s) => `PROFILE ${s}`);
  return r.level === 'PROFILE' ? profile : [...r.sections, ...profile];
}

/** The sections of several requirements, each once, in the order they first appear. */
export function sectionsOfAll(requirements: Iterable<Requirement>): string[] {
  return [...new Set([...requirements].flatMap(sectionsOf))];
}

/** One problem in a registry: which entry, which field, what was expected. */
export interface RegistryIssue {
  readonly entry: string;
  readonly field: string;
  readonly expected: string;
}

export class RegistryError extends Error {
  readonly code = 'REGISTRY_INVALID';
  readonly source: string;
  readonly issues: readonly RegistryIssue[];

  constructor(source: string, issues: readonly RegistryIssue[]) {
    const lines = issues.map((i) => `  - ${i.entry}, field "${i.field}": expected ${i.expected}`);
    super(`${source} is invalid (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n${lines.join('\n')}`);
    this.name = 'RegistryError';
    this.source = source;
    this.issues = issues;
  }
}

let validator: ValidateFunction | undefined;
let cached: readonly Requirement[] | undefined;
let byId: ReadonlyMap<string, Requirement> | undefined;

function schemaValidator(): ValidateFunction {
  if (validator === undefined) {
    const schema: unknown = JSON.parse(readFileSync(SCHEMA_URL, 'utf8'));
    // `.default`: the CommonJS module object under NodeNext typing; at run time
    // ajv sets module.exports.default to the class itself.
    const ajv = new Ajv2020.default({ allErrors: true, strict: true });
    validator = ajv.compile(schema as object);
  }
  return validator;
}

/**
 * Validates parsed registry data: the schema, then unique IDs. Returns the
 * entries deeply frozen; throws a RegistryError listing every problem.
 */
export function validateRegistry(data: unknown, source: string = REGISTRY_NAME): readonly Requirement[] {
  const validate = schemaValidator();
  const issues: RegistryIssue[] = [];
  if (!validate(data)) {
    for (const error of validate.errors ?? []) {
      // `if` only wraps the failing `then` branch, which is reported on its own.
      if (error.keyword !== 'if') issues.push(issueFromAjv(data, error));
    }
  }
  if (Array.isArray(data)) issues.push(...duplicateIds(data));
  if (issues.length > 0) throw new RegistryError(source, issues);
  return deepFreeze(structuredClone(data) as Requirement[]);
}

/**
 * Reads, validates and caches suites/requirements.yaml. A command running from
 * the launcher's build reads and validates it once: the next reads what it
 * found, as long as neither the registry nor its schema changed
 * (profile/build.ts keptInBuild).
 */
export function loadRegistry(): readonly Requirement[] {
  cached ??= deepFreeze(keptInBuild('registry', REGISTRY_FILES, readRegistry));
  return cached;
}

function readRegistry(): readonly Requirement[] {
  let data: unknown;
  try {
    data = YAML.parse(readFileSync(REGISTRY_URL, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RegistryError(REGISTRY_NAME, [{ entry: '(document)', field: '(syntax)', expected: `valid YAML: ${reason}` }]);
  }
  return validateRegistry(data, REGISTRY_NAME);
}

/** The entry with this ID, or undefined. */
export function findRequirement(id: string): Requirement | undefined {
  byId ??= new Map(loadRegistry().map((r) => [r.id, r]));
  return byId.get(id);
}

function duplicateIds(entries: readonly unknown[]): RegistryIssue[] {
  const firstIndex = new Map<string, number>();
  const issues: RegistryIssue[] = [];
  entries.forEach((entry, index) => {
    const id = idOf(entry);
    if (id === undefined) return;
    const first = firstIndex.get(id);
    if (first === undefined) firstIndex.set(id, index);
    else issues.push({ entry: entryLabel(entries, index), field: 'id', expected: `a unique id, but ${id} is already used by entry #${first}` });
  });
  return issues;
}

// How each ajv keyword reads as "expected ...".
const EXPECTED: Record<string, (params: Record<string, unknown>) => string> = {
  enum: (p) => `one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
  const: (p) => JSON.stringify(p['allowedValue']),
  pattern: (p) => `a string matching ${String(p['pattern'])}`,
  type: (p) => `a value of type ${String(p['type'])}`,
  minItems: (p) => `at least ${String(p['limit'])} item(s)`,
  minLength: (p) => `at least ${String(p['limit'])} character(s)`,
  uniqueItems: (p) => `no repeated items (items ${String(p['j'])} and ${String(p['i'])} are equal)`,
  required: () => 'the member to be present',
  additionalProperties: () => 'no such member (not in the schema)',
};

function issueFromAjv(data: unknown, error: ErrorObject): RegistryIssue {
  const [, index, ...rest] = error.instancePath.split('/');
  const params = error.params as Record<string, unknown>;
  const entry = index === undefined ? '(registry)' : entryLabel(data, Number(index));
  let field = rest.join('/');
  if (error.keyword === 'required') field = joinField(field, String(params['missingProperty']));
  if (error.keyword === 'additionalProperties') field = joinField(field, String(params['additionalProperty']));
  const describe = EXPECTED[error.keyword];
  let expected = describe === undefined ? (error.message ?? error.keyword) : describe(params);
  if (error.keyword !== 'required' && error.keyword !== 'additionalProperties') {
    expected += `, got ${JSON.stringify(valueAt(data, error.instancePath))}`;
  }
  return { entry, field: field === '' ? '(entry)' : field, expected };
}

function joinField(parent: string, child: string): string {
  return parent === '' ? child : `${parent}/${child}`;
}

function entryLabel(data: unknown, index: number): string {
  const entry = Array.isArray(data) ? (data[index] as unknown) : undefined;
  const id = idOf(entry);
  return id === undefined ? `entry #${index}` : `entry #${index} (${id})`;
}

function idOf(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const id = (entry as Record<string, unknown>)['id'];
  return typeof id === 'string' ? id : undefined;
}

function valueAt(data: unknown, pointer: string): unknown {
  let value = data;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return value;
}

