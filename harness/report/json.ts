// report.json: the canonical result model on disk (STYLE.md §8), validated by
// report.schema.json both when written and when read back (`report merge`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { keptValidators } from '../../profile/kept-validators.ts';
import { HarnessError } from '../errors.ts';
import type { Report } from './model.ts';

export const REPORT_JSON = 'report.json';
const SCHEMA_URL = new URL('./report.schema.json', import.meta.url);
/** How many schema problems an error message lists. */
const SHOWN_PROBLEMS = 5;

interface SchemaObject {
  readonly $ref?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
  readonly additionalProperties?: Schema;
  readonly $defs?: Readonly<Record<string, Schema>>;
}
type Schema = boolean | SchemaObject;

let schema: SchemaObject | undefined;
let validator: ValidateFunction | undefined;

function reportSchema(): SchemaObject {
  schema ??= JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as SchemaObject;
  return schema;
}

/** The report schema's validator, compiled on first use or read from the launcher's build (profile/kept-validators.ts). */
function validate(): ValidateFunction {
  validator ??= keptValidators({
    name: 'report',
    inputs: [fileURLToPath(SCHEMA_URL)],
    options: { allErrors: true, strict: true },
    formats: { 'date-time': fullFormats['date-time'] },
    validators: () => ({ report: reportSchema() }),
  }).report;
  return validator;
}

/** Schema problems of a would-be report, one line each ("at /tests/0/status: ..."); empty when valid. */
export function reportProblems(data: unknown): string[] {
  const check = validate();
  if (check(data)) return [];
  return (check.errors ?? []).map(describe);
}

function describe(error: ErrorObject): string {
  const at = error.instancePath === '' ? '(top level)' : error.instancePath;
  const p = error.params as Record<string, unknown>;
  const detail: Record<string, () => string> = {
    enum: () => `must be one of ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
    additionalProperties: () => `has unknown member "${String(p['additionalProperty'])}"`,
    required: () => `lacks required member "${String(p['missingProperty'])}"`,
  };
  return `at ${at}: ${detail[error.keyword]?.() ?? error.message ?? error.keyword}`;
}

function problemText(problems: readonly string[]): string {
  const shown = problems.slice(0, SHOWN_PROBLEMS).map((p) => `  - ${p}`);
  if (problems.length > SHOWN_PROBLEMS) shown.push(`  - ... and ${problems.length - SHOWN_PROBLEMS} more`);
  return shown.join('\n');
}

/**
 * Reads and validates a report.json. Throws a HarnessError (USAGE_ERROR: the
 * file was given on the command line) naming the file and the first problems.
 */
export function readReport(file: string): Report {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `cannot read report ${file}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `${file} is not JSON: ${(error as Error).message}`, 'pass the report.json written by `cpr-conformance run`');
  }
  const problems = reportProblems(data);
  if (problems.length > 0) {
    throw new HarnessError('USAGE_ERROR', `${file} is not a valid report (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problemText(problems)}`, 'it must match harness/report/report.schema.json');
  }
  return data as Report;
}

/**
 * Writes DIR/report.json: two-space indentation, keys in the model's order
 * (the schema's property order) whatever order the object was built in, and a
 * trailing newline. An invalid report is a harness bug: it throws, never writes.
 */
export function writeJsonReport(dir: string, report: Report): string {
  // What is judged is what would be written: the text, read back.
  const text = reportJson(report);
  const problems = reportProblems(JSON.parse(text));
  if (problems.length > 0) throw new HarnessError('HARNESS_INTERNAL', `refusing to write an invalid report.json:\n${problemText(problems)}`);
  const file = join(dir, REPORT_JSON);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** The text of report.json (what writeJsonReport writes). */
export function reportJson(report: Report): string {
  const root = reportSchema();
  return `${JSON.stringify(ordered(report, root, root), null, 2)}\n`;
}

// Rebuilds objects with keys in schema order; members the schema does not
// describe (free-form `expected`/`actual`, header maps) keep their own order.
function ordered(value: unknown, node: Schema, root: SchemaObject): unknown {
  const resolved = resolve(node, root);
  if (Array.isArray(value)) return value.map((item) => (typeof resolved === 'object' && resolved.items !== undefined ? ordered(item, resolved.items, root) : item));
  if (typeof value !== 'object' || value === null || typeof resolved !== 'object' || resolved.properties === undefined) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(resolved.properties)) if (source[key] !== undefined) out[key] = ordered(source[key], child, root);
  for (const [key, child] of Object.entries(source)) if (!(key in out) && child !== undefined) out[key] = child;
  return out;
}

function resolve(node: Schema, root: SchemaObject): Schema {
  if (typeof node !== 'object' || node.$ref === undefined) return node;
  const name = node.$ref.replace('#/$defs/', '');
  const target = root.$defs?.[name];
  if (target === undefined) throw new Error(`report.schema.json: unresolved $ref ${node.$ref}`);
  return resolve(target, root);
}

/** A checked value as text for humans: strings as they are, anything else as indented JSON. */
export function displayValue(value: unknown): string {
  if (typeof value === 'string') return elideBlobs(value);
  if (value === undefined) return '(nothing)';
  try {
    return elideBlobs(JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    return String(value);
  }
}

/** A run of base64 (or base64url) this long is an image or a blob, not something to read. */
const BLOB = /[A-Za-z0-9+/_-]{512,}={0,2}/g;
const BLOB_KEPT = 48;

/**
 * Text for a reader: each base64 blob (a QR code's PNG, say) cut to its first
 * characters and a count, so that it does not bury the values around it. The
 * views do this; report.json keeps every byte.
 */
export function elideBlobs(text: string): string {
  return text.replace(BLOB, (blob) => `${blob.slice(0, BLOB_KEPT)}…[${blob.length - BLOB_KEPT} more base64 characters; in full in report.json]`);
}
