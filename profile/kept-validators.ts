// JSON Schema validators compiled once per build. Ajv compiles a schema into
// the source of a function and evaluates it: the cash-pack messages' schemas
// take about 80 ms to compile, in each thread that reads them, on every
// command's start. Running from the launcher's build, a set of validators is
// compiled once, its source (Ajv's standalone code) kept in the build
// (profile/build.ts keptInBuild, keyed by the schema files), and every later
// command evaluates that source: a few milliseconds. From the sources (tsx,
// vitest) each validator is compiled on its first use, as Ajv does; both are
// built from the one spec (the same options, schemas and formats), and
// test/profile/kept-validators.test.ts holds them to the same answers.
import { createRequire } from 'node:module';
import { _, type Format, type Options, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { BUNDLE_DIR, keptInBuild } from './build.ts';

export interface ValidatorSpec<K extends string> {
  /** Names the set in the build (one kept set per name). */
  readonly name: string;
  /** The files the schemas are read from: a set is compiled again when one changed. */
  readonly inputs: readonly string[];
  /** Ajv's options; `code` is the cache's own. */
  readonly options: Omit<Options, 'code'>;
  /** Formats by name: the same objects for compiling and for running. */
  readonly formats?: Readonly<Record<string, Format>>;
  /** Schemas added first, for the others' `$ref`s. */
  readonly shared?: () => readonly object[];
  /** The validators: each name's schema, or the `$id` of one added in `shared`. */
  readonly validators: () => Readonly<Record<K, object | string>>;
}

/** The variable the kept source reads its formats from (`_\`__formats\`` below). */
const FORMATS = '__formats';

function ajvOf<K extends string>(spec: ValidatorSpec<K>, source: boolean): { ajv: InstanceType<typeof Ajv2020.default>; refs: Record<K, string> } {
  // `.default`: the CommonJS module object under NodeNext typing (see profile/registry.ts).
  const ajv = new Ajv2020.default({ ...spec.options, ...(source ? { code: { source: true, formats: _`__formats` } } : {}) });
  for (const [name, format] of Object.entries(spec.formats ?? {})) ajv.addFormat(name, format);
  for (const schema of spec.shared?.() ?? []) ajv.addSchema(schema);
  const refs = {} as Record<K, string>;
  for (const [name, schema] of Object.entries(spec.validators()) as [K, object | string][]) {
    if (typeof schema === 'string') refs[name] = schema;
    else {
      ajv.addSchema(schema, `kept:${name}`);
      refs[name] = `kept:${name}`;
    }
  }
  return { ajv, refs };
}

/**
 * The validators of `spec` by name. `dir` is the build's folder (tests give
 * one of their own); without one, each is compiled on its first use.
 */
export function keptValidators<K extends string>(spec: ValidatorSpec<K>, dir: URL | undefined = BUNDLE_DIR): Readonly<Record<K, ValidateFunction>> {
  if (dir === undefined) {
    let built: ReturnType<typeof ajvOf<K>> | undefined;
    const compiled = new Map<K, ValidateFunction>();
    const names = Object.keys(spec.validators()) as K[];
    return Object.fromEntries(
      names.map((name) => {
        const validate = ((data: unknown) => {
          let fn = compiled.get(name);
          if (fn === undefined) {
            built ??= ajvOf(spec, false);
            fn = built.ajv.getSchema(built.refs[name])!;
            compiled.set(name, fn);
          }
          const valid = fn(data);
          validate.errors = fn.errors;
          return valid;
        }) as ValidateFunction;
        return [name, validate];
      }),
    ) as Record<K, ValidateFunction>;
  }
  const source = keptInBuild(`validators-${spec.name}`, spec.inputs, () => {
    const { ajv, refs } = ajvOf(spec, true);
    return standaloneCode.default(ajv, refs);
  }, dir);
  const module = { exports: {} as Record<K, ValidateFunction> };
  // The standalone source is CommonJS: it requires Ajv's runtime helpers and reads the formats from FORMATS.
  new Function('require', FORMATS, 'module', 'exports', source)(createRequire(import.meta.url), spec.formats ?? {}, module, module.exports);
  return module.exports;
}
