// vectors/vector.schema.json compiled once: every vector file must pass it.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

export const SCHEMA_URL = new URL('../../vectors/vector.schema.json', import.meta.url);

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled === undefined) {
    // `.default`: the CommonJS module object under NodeNext typing (see profile/registry.ts).
    // strictRequired is off: a conditional `then` requires members its parent declares.
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictRequired: false });
    compiled = ajv.compile(JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as object);
  }
  return compiled;
}

/** The schema's complaints about a parsed vector file, as "pointer: message" lines; empty when it is valid. */
export function schemaErrors(file: unknown): string[] {
  const validate = validator();
  if (validate(file)) return [];
  return (validate.errors ?? []).filter((e) => e.keyword !== 'if').map((e) => `${e.instancePath || '/'}: ${e.message ?? e.keyword}${e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties' ? ` (${JSON.stringify(e.params)})` : ''}`);
}
