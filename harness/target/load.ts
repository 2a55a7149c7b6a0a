// Reads a target file (YAML): syntax, then the schema (target.schema.json), then
// what a schema cannot see (files exist and hold what they claim, environment
// variables are set). Every mistake is reported with the key path, the line and
// what was expected, all at once, as one CONFIG_INVALID HarnessError.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import YAML, { isMap, isPair, isScalar, isSeq, LineCounter, type Document, type Node as YamlNode } from 'yaml';
import type { Capability } from '../../profile/control.ts';
import { HarnessError } from '../errors.ts';
import { didYouMean } from '../text.ts';
import type { AdapterConfig, AppRoleConfig, HttpRoleConfig, KeyCredential, RoleCredentials, TargetConfig } from './config.ts';
import { readKeyFile } from './keys.ts';

const SCHEMA_URL = new URL('./target.schema.json', import.meta.url);
const HINT = 'see harness/ADAPTERS.md, or write a commented template with: cpr-conformance init';

type Segment = string | number;

/** One mistake: where (key path, line) and what was expected instead. */
interface TargetProblem {
  readonly path: readonly Segment[];
  readonly expected: string;
  readonly got: string;
  /** Point at the key itself rather than its value (unknown or missing keys). */
  readonly atKey?: boolean;
}

// ---- The raw shape the schema guarantees ----

interface RawRole {
  readonly adapter: 'http' | 'module' | 'process';
  readonly base_url?: string;
  readonly plaintext_base_url?: string;
  readonly tls?: { readonly ca_file?: string; readonly insecure?: true };
  readonly control?: { readonly token?: string; readonly token_env?: string };
  readonly capabilities?: 'auto' | readonly Capability[];
  readonly module?: string;
  readonly command?: readonly string[];
  readonly settings?: Record<string, unknown>;
  readonly credentials?: Record<'principal' | 'staff' | 'redeemer', { readonly private_key_file: string; readonly identity_level?: number } | undefined>;
}

interface RawTarget {
  readonly name?: string;
  readonly payee?: RawRole;
  readonly operator?: RawRole;
  readonly paying_app?: RawRole;
}

/** The environment a target file's control.token_env names are read from: the command's (harness/io.ts). */
type Env = Readonly<Record<string, string | undefined>>;

/** Loads and checks a target file; throws HarnessError CONFIG_INVALID naming every mistake. */
export function loadTargetFile(path: string, env: Env = process.env): TargetConfig {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('CONFIG_INVALID', `target file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, HINT);
  }
  return parseTarget(text, file, env);
}

/** The same checks on text already in hand; `file` names it and anchors relative paths. */
function parseTarget(text: string, file: string, env: Env): TargetConfig {
  const lines = new LineCounter();
  const doc = YAML.parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const shown = doc.errors.map((e) => {
      const reason = (e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      return `  ${reason}${e.linePos ? ` (line ${e.linePos[0].line}:${e.linePos[0].col})` : ''}`;
    });
    throw new HarnessError('CONFIG_INVALID', `target file ${file} is not valid YAML:\n${shown.join('\n')}`, HINT);
  }
  const data: unknown = doc.toJS() ?? {};
  const schemaProblems = validateShape(data);
  if (schemaProblems.length > 0) throw invalid(file, doc, lines, schemaProblems);
  const problems: TargetProblem[] = [];
  const config = resolveTarget(data as RawTarget, dirname(file), basename(file), problems, env);
  // A file that names no role (empty, truncated, a template left unfilled) gives nothing to test: never a verdict.
  if (!config.payee && !config.operator && !config.payingApp && problems.length === 0) {
    problems.push({ path: [], expected: 'at least one role to test: payee, operator or paying_app', got: 'no role at all', atKey: true });
  }
  if (problems.length > 0) throw invalid(file, doc, lines, problems);
  return { ...config, source: file };
}

// ---- Schema ----

let validator: ValidateFunction | undefined;

function schemaValidator(): ValidateFunction {
  if (validator === undefined) {
    const schema: unknown = JSON.parse(readFileSync(SCHEMA_URL, 'utf8'));
    // `.default`: the CommonJS class under NodeNext typing (see profile/registry.ts).
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true });
    ajv.addKeyword('x-expected');
    validator = ajv.compile(schema as object);
  }
  return validator;
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
};

/** Schema violations as problems; `if` failures only point at their `then`, reported on its own. */
export function validateShape(data: unknown): TargetProblem[] {
  const validate = schemaValidator();
  if (validate(data)) return [];
  const problems: TargetProblem[] = [];
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'if') continue;
    problems.push(problemOf(data, error));
  }
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path.join('\u0000')}|${p.expected}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

function problemOf(data: unknown, error: ErrorObject): TargetProblem {
  const path = pointerSegments(error.instancePath);
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>;
  const custom = typeof parent['x-expected'] === 'string' ? parent['x-expected'] : undefined;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params['missingProperty']);
      const own = ((parent['properties'] as Record<string, Record<string, unknown>> | undefined)?.[missing]?.['x-expected'] as string | undefined) ?? undefined;
      return { path: [...path, missing], expected: custom ?? `the key ${missing}${own ? `: ${own}` : ''}`, got: 'nothing', atKey: true };
    }
    case 'additionalProperties': {
      const extra = String(params['additionalProperty']);
      const known = Object.keys((parent['properties'] as object | undefined) ?? {});
      return { path: [...path, extra], expected: `one of the keys ${known.join(', ')}`, got: `an unknown key${didYouMean(extra, known)}`, atKey: true };
    }
    default: {
      const value = valueAt(data, path);
      const allowed = error.keyword === 'enum' && typeof value === 'string' ? ((params['allowedValues'] as unknown[]) ?? []).filter((v): v is string => typeof v === 'string') : [];
      return { path, expected: custom ?? genericExpectation(error), got: `${show(path, value)}${typeof value === 'string' ? didYouMean(value, allowed) : ''}` };
    }
  }
}

function genericExpectation(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return String(p['type'])
        .split(',')
        .map((t) => TYPE_NAMES[t] ?? t)
        .join(' or ');
    case 'enum':
      return `one of ${(p['allowedValues'] as unknown[]).map((v) => String(v)).join(', ')}`;
    case 'const':
      return JSON.stringify(p['allowedValue']);
    case 'minLength':
      return 'a non-empty string';
    case 'minItems':
      return `at least ${String(p['limit'])} item(s)`;
    case 'uniqueItems':
      return 'no item twice';
    case 'minimum':
    case 'maximum':
      return `a value ${String(p['comparison'])} ${String(p['limit'])}`;
    default:
      return error.message ?? error.keyword;
  }
}

// ---- What the schema cannot see ----

/** Which keys make sense for which adapter: anything else is a mistake, not ignored. */
const ADAPTER_ONLY: readonly (readonly [key: string, adapter: RawRole['adapter']])[] = [
  ['base_url', 'http'],
  ['plaintext_base_url', 'http'],
  ['module', 'module'],
  ['command', 'process'],
];

function resolveTarget(raw: RawTarget, dir: string, fileName: string, problems: TargetProblem[], env: Env): Omit<TargetConfig, 'source'> {
  const payee = raw.payee && resolveHttpRole(raw.payee, 'payee', dir, problems, env);
  const operator = raw.operator && resolveHttpRole(raw.operator, 'operator', dir, problems, env);
  const payingApp = raw.paying_app && resolveAppRole(raw.paying_app, dir, problems);
  return {
    name: raw.name ?? fileName,
    ...(payee ? { payee } : {}),
    ...(operator ? { operator } : {}),
    ...(payingApp ? { payingApp } : {}),
  };
}

function resolveAdapter(raw: RawRole, at: string, dir: string, problems: TargetProblem[]): AdapterConfig | undefined {
  for (const [key, only] of ADAPTER_ONLY) {
    if ((raw as unknown as Record<string, unknown>)[key] !== undefined && raw.adapter !== only) {
      problems.push({ path: [at, key], expected: `no ${key} with adapter: ${raw.adapter} (it belongs to adapter: ${only})`, got: `${key}`, atKey: true });
    }
  }
  if (raw.tls?.insecure === true && raw.adapter !== 'http') {
    problems.push({ path: [at, 'tls', 'insecure'], expected: 'tls.insecure only with adapter: http', got: `adapter: ${raw.adapter}`, atKey: true });
  }
  switch (raw.adapter) {
    case 'http':
      return { adapter: 'http', baseUrl: raw.base_url!, ...(raw.plaintext_base_url !== undefined ? { plaintextBaseUrl: raw.plaintext_base_url } : {}), insecure: raw.tls?.insecure === true };
    case 'module': {
      const module = resolve(dir, raw.module!);
      if (!existsSync(module)) problems.push({ path: [at, 'module'], expected: 'an existing JS/TS module (paths are relative to the target file)', got: `${module}, which does not exist` });
      return { adapter: 'module', module };
    }
    case 'process':
      return { adapter: 'process', command: raw.command!, cwd: dir };
  }
}

function readCa(raw: RawRole, at: string, dir: string, problems: TargetProblem[]): { ca?: string; caFile?: string } {
  if (raw.tls?.ca_file === undefined) return {};
  const caFile = resolve(dir, raw.tls.ca_file);
  let ca: string;
  try {
    ca = readFileSync(caFile, 'utf8');
  } catch (error) {
    problems.push({ path: [at, 'tls', 'ca_file'], expected: 'a readable PEM file of CA certificates', got: `${caFile} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})` });
    return {};
  }
  if (!ca.includes('-----BEGIN CERTIFICATE-----')) {
    problems.push({ path: [at, 'tls', 'ca_file'], expected: 'a PEM file of CA certificates (-----BEGIN CERTIFICATE-----)', got: `${caFile}, which holds none` });
    return {};
  }
  return { ca, caFile };
}

function resolveHttpRole(raw: RawRole, at: 'payee' | 'operator', dir: string, problems: TargetProblem[], env: Env): HttpRoleConfig | undefined {
  const adapter = resolveAdapter(raw, at, dir, problems);
  const tls = readCa(raw, at, dir, problems);
  let controlToken = raw.control?.token;
  const envName = raw.control?.token_env;
  if (envName !== undefined) {
    controlToken = env[envName];
    if (controlToken === undefined || controlToken === '') {
      problems.push({ path: [at, 'control', 'token_env'], expected: `the environment variable ${envName} to be set`, got: 'it unset or empty' });
    }
  }
  const credentials = readCredentials(raw, at, dir, problems);
  if (!adapter) return undefined;
  return {
    ...adapter,
    ...tls,
    settings: raw.settings ?? {},
    ...(controlToken ? { controlToken } : {}),
    capabilities: raw.capabilities ?? 'auto',
    credentials,
  };
}

function resolveAppRole(raw: RawRole, dir: string, problems: TargetProblem[]): AppRoleConfig | undefined {
  const adapter = resolveAdapter(raw, 'paying_app', dir, problems);
  const tls = readCa(raw, 'paying_app', dir, problems);
  if (!adapter || adapter.adapter === 'http') return undefined;
  return { ...adapter, ...tls, settings: raw.settings ?? {} };
}

function readCredentials(raw: RawRole, at: string, dir: string, problems: TargetProblem[]): RoleCredentials {
  const out: { principal?: KeyCredential; staff?: KeyCredential; redeemer?: KeyCredential & { identityLevel: number } } = {};
  for (const who of ['principal', 'staff', 'redeemer'] as const) {
    const entry = raw.credentials?.[who];
    if (!entry) continue;
    const file = resolve(dir, entry.private_key_file);
    const read = readKeyFile(file);
    if (!read.ok) {
      problems.push({ path: [at, 'credentials', who, 'private_key_file'], expected: 'a readable Ed25519 JWK file with d (RFC 8037)', got: read.reason });
      continue;
    }
    if (who === 'redeemer') out.redeemer = { ...read.key, identityLevel: entry.identity_level ?? 0 };
    else out[who] = read.key;
  }
  return out;
}

// ---- Reporting ----

function invalid(file: string, doc: Document, lines: LineCounter, problems: readonly TargetProblem[]): HarnessError {
  const located = problems
    .map((p) => ({ p, line: locate(doc, lines, p.path, p.atKey === true) }))
    .sort((a, b) => a.line - b.line);
  const shown = located.map(({ p, line }) => `  ${keyPath(p.path)}: expected ${p.expected}, got ${p.got} (line ${line})`);
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return new HarnessError('CONFIG_INVALID', `target file ${file} is invalid (${count}):\n${shown.join('\n')}`, HINT);
}

/** `operator.tls.insecure`, `operator.capabilities[1]`; `(file)` for the document itself. */
function keyPath(path: readonly Segment[]): string {
  let out = '';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out === '' ? '(file)' : out;
}

/** The line of the node at `path` (its key when `atKey`), or of its nearest existing ancestor. */
function locate(doc: Document, lines: LineCounter, path: readonly Segment[], atKey: boolean): number {
  let node: unknown = doc.contents;
  let found: unknown = node;
  // A missing key is shown at the key of the mapping that lacks it.
  let parentKey: unknown;
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === segment);
      if (!pair) {
        if (parentKey !== undefined) found = parentKey;
        break;
      }
      found = last && atKey ? pair.key : (pair.value ?? pair.key);
      parentKey = pair.key;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) break;
      found = item;
      node = item;
    } else {
      break;
    }
  }
  const offset = (found as YamlNode | null)?.range?.[0] ?? 0;
  return lines.linePos(offset).line;
}

function pointerSegments(pointer: string): Segment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

function valueAt(data: unknown, path: readonly Segment[]): unknown {
  let value = data;
  for (const segment of path) value = (value as Record<string | number, unknown> | null | undefined)?.[segment];
  return value;
}

/** A short rendering of a wrong value; a control token is never echoed. */
function show(path: readonly Segment[], value: unknown): string {
  if (path.includes('control')) return `a ${Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value} (not shown)`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
