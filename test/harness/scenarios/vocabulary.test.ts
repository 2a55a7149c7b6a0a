// Each action and check is defined once, in vocabulary.ts: its parameters and
// their schema, the requirement a setup step of it proves, whether it gates
// later checks, which requirements it can charge. The implementations read
// their parameters by name (actions/, checks.ts), so the names are held to the
// definition here: a parameter read that no definition declares, or one
// declared that no implementation reads, is a drift.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ACTIONS, CHECKS, extraRequirements, gatesLaterChecks, setupRequirementOf, type ActionName, type CheckName } from '../../../harness/scenarios/vocabulary.ts';
import { findRequirement, loadRegistry, ROLES } from '../../../profile/registry.ts';

const SCENARIOS = fileURLToPath(new URL('../../../harness/scenarios/', import.meta.url));
const read = (file: string) => readFileSync(join(SCENARIOS, file), 'utf8');
const ACTION_SOURCES = [...readdirSync(join(SCENARIOS, 'actions')).map((f) => read(join('actions', f))), read('execute.ts')];
const CHECK_SOURCES = [read('checks.ts')];

const READER = /\b\w+\??\.(?:text|key|integer|boolean|object|nested|strings|list|value|has|choice|oneOf)\(\s*'([A-Za-z_0-9]+)'/g;

/** The parameter names code reads: `p.text('name')` (or `a?.text('name')`) and its kin, `optionalText(p, 'name')`, `p.role()` (`role`). */
function readsOf(sources: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const code of sources) {
    for (const [, name] of code.matchAll(READER)) names.add(name!);
    for (const [, name] of code.matchAll(/optionalText\(\s*\w+,\s*'([A-Za-z_0-9]+)'/g)) names.add(name!);
    if (/\bp\.role\(\)/.test(code)) names.add('role');
  }
  return names;
}

function drift(reads: Set<string>, declared: Set<string>, passedOn: Readonly<Record<string, string>>) {
  return { undeclared: [...reads].filter((n) => !declared.has(n)).sort(), unread: [...declared].filter((n) => !reads.has(n) && !(n in passedOn)).sort() };
}

/** Every parameter name a set of schemas declares, at any depth (`resign.key`, a parallel step's `pack_id`). */
const declaredIn = (schemas: readonly unknown[], top: readonly Readonly<Record<string, unknown>>[] = []): Set<string> => new Set(declarationsIn(schemas, top).keys());
const actionDeclared = () => declaredIn(Object.values(ACTIONS).map((a) => a.params), Object.values(ACTIONS).map((a) => a.params));

/** Declared parameters the implementation hands on whole rather than reading by name, and why. */
const ACTION_PASSED_ON: Readonly<Record<string, string>> = {
  times: "repeat's count is read by the engine that runs it (execute.ts), from the rendered step",
  text: "app-read's `input: { kind: json, text }` goes to the paying application as it is (input.all())",
};
const CHECK_PASSED_ON: Readonly<Record<string, string>> = {
  available: 'balance reads its amounts by the names of BALANCE_MEMBERS',
  locked: 'balance reads its amounts by the names of BALANCE_MEMBERS',
  held: 'balance reads its amounts by the names of BALANCE_MEMBERS',
};

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'key' | 'template' | 'any';
const REF_KINDS: Readonly<Record<string, readonly Kind[]>> = { template: ['template'], keyName: ['key', 'template'], step: ['object'] };

/** The kinds of value a declared schema admits; a template renders to anything. */
function kindsOf(schema: Record<string, unknown>): Set<Kind> {
  if (Object.keys(schema).length === 0) return new Set(['any']);
  if (typeof schema['$ref'] === 'string') return new Set(REF_KINDS[schema['$ref'].split('/').pop()!] ?? ['string']);
  const alternatives = (schema['oneOf'] ?? schema['anyOf']) as Record<string, unknown>[] | undefined;
  if (alternatives) return new Set(alternatives.flatMap((a) => [...kindsOf(a)]));
  if (Array.isArray(schema['enum'])) return new Set(schema['enum'].map((v) => (Number.isInteger(v) ? 'integer' : typeof v) as Kind));
  if ('const' in schema) return new Set([(Number.isInteger(schema['const']) ? 'integer' : typeof schema['const']) as Kind]);
  return new Set([schema['type'] as Kind]);
}

/** The kinds a reader takes: `p.integer` an integer, `p.key` a key name, and so on. */
const READER_KINDS: Readonly<Record<string, readonly Kind[]>> = {
  text: ['string', 'integer', 'number', 'boolean', 'key'],
  key: ['key'],
  integer: ['integer'],
  boolean: ['boolean'],
  object: ['object'],
  nested: ['object'],
  strings: ['array'],
  list: ['array'],
  choice: ['string'],
  oneOf: ['string'],
};
const TYPED_READ = /\b\w+\??\.(text|key|integer|boolean|object|nested|strings|list|choice|oneOf)\(\s*'([A-Za-z_0-9]+)'/g;

/** Every declaration of each parameter name, at any depth. */
function declarationsIn(schemas: readonly unknown[], top: readonly Readonly<Record<string, unknown>>[] = []): Map<string, Record<string, unknown>[]> {
  const found = new Map<string, Record<string, unknown>[]>();
  const add = (name: string, schema: unknown) => found.set(name, [...(found.get(name) ?? []), schema as Record<string, unknown>]);
  for (const params of top) for (const [name, schema] of Object.entries(params)) add(name, schema);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties') for (const [name, schema] of Object.entries(value as object)) add(name, schema);
      walk(value);
    }
  };
  schemas.forEach(walk);
  return found;
}

/** Each read whose reader takes a kind of value no declaration of that name admits. */
function mistyped(sources: readonly string[], declarations: Map<string, Record<string, unknown>[]>): string[] {
  return sources.flatMap((code) =>
    [...code.matchAll(TYPED_READ)].flatMap(([, reader, name]) => {
      const admitted = (declarations.get(name!) ?? []).flatMap((schema) => [...kindsOf(schema)]);
      const fits = admitted.some((kind) => kind === 'any' || kind === 'template' || READER_KINDS[reader!]!.includes(kind));
      return fits ? [] : [`${reader}('${name}') reads what is declared as ${[...new Set(admitted)].join(' or ') || 'nothing'}`];
    }),
  );
}

describe('the vocabulary is the one definition of each action and check', () => {
  it('declares every parameter an action reads, and every declared parameter is read', () => {
    expect(drift(readsOf(ACTION_SOURCES), actionDeclared(), ACTION_PASSED_ON)).toEqual({ undeclared: [], unread: [] });
  });

  it("declares every member a check reads of its argument, and every declared member is read", () => {
    expect(drift(readsOf(CHECK_SOURCES), declaredIn(Object.values(CHECKS).map((c) => c.arg)), CHECK_PASSED_ON)).toEqual({ undeclared: [], unread: [] });
  });

  it('would see a parameter read under a name no definition declares, or one declared and never read', () => {
    const probe = readsOf([...ACTION_SOURCES, "const x = p.text('pakc_id');"]);
    expect(drift(probe, actionDeclared(), ACTION_PASSED_ON).undeclared).toEqual(['pakc_id']);
    const withoutBody = readsOf(ACTION_SOURCES.map((code) => code.replaceAll("'body_base64'", "'other'")));
    expect(drift(withoutBody, actionDeclared(), ACTION_PASSED_ON).unread).toContain('body_base64');
  });

  it('declares each parameter with a type its reader takes', () => {
    const actions = declarationsIn(Object.values(ACTIONS).map((a) => a.params), Object.values(ACTIONS).map((a) => a.params));
    expect(ACTION_SOURCES.flatMap((code) => [...code.matchAll(TYPED_READ)]).length).toBeGreaterThan(40);
    expect(mistyped(ACTION_SOURCES, actions)).toEqual([]);
    expect(mistyped(CHECK_SOURCES, declarationsIn(Object.values(CHECKS).map((c) => c.arg)))).toEqual([]);
    // A boolean read as an integer, or an enum read as a key, would be seen.
    expect(mistyped(["p.integer('chunked'); p.key('transport');"], actions)).toEqual(["integer('chunked') reads what is declared as boolean", "key('transport') reads what is declared as string"]);
  });

  it('names, for every setup requirement and every extra a check can charge, a requirement of the registry', () => {
    const ids = new Set(loadRegistry().map((r) => r.id));
    const setup = (Object.keys(ACTIONS) as ActionName[]).flatMap((name) => setupRequirementOf(name) ?? []);
    const charged = (Object.keys(CHECKS) as CheckName[]).flatMap((name) => ROLES.flatMap((role) => [...extraRequirements(name, 'INVALID_SIGNATURE', role), ...extraRequirements(name, {}, role)]));
    expect(setup.length).toBeGreaterThanOrEqual(6);
    expect(charged.length).toBeGreaterThanOrEqual(3);
    // A CPR's violations are charged only to rules that bind the scenario's role.
    for (const role of ROLES) {
      const rules = extraRequirements('cpr_valid', true, role);
      expect(rules.length, role).toBeGreaterThan(role === 'operator' ? -1 : 5);
      expect(rules.filter((id) => !findRequirement(id)?.roles.includes(role)), role).toEqual([]);
      expect(extraRequirements('cpr_valid', { rule: 'CPR-TIME-1' }, role)).toEqual([]);
    }
    expect([...setup, ...charged].filter((id) => !ids.has(id))).toEqual([]);
  });

  it('gates on the checks that judge an outcome, and on no other', () => {
    expect((Object.keys(CHECKS) as CheckName[]).filter(gatesLaterChecks).sort()).toEqual(['accepted', 'all', 'content_type', 'exactly_one', 'not_status', 'problem', 'rejected', 'status']);
  });

  it('charges an extra only from a check whose definition declares it', () => {
    // A check implementation that records results under other requirements (its `extra`) must declare them (CheckSpec.charges).
    const code = CHECK_SOURCES[0]!;
    const table = code.slice(code.indexOf('export const CHECK_IMPLEMENTATIONS'));
    const entries = [...table.matchAll(/^ {2}'?([a-z_]+)'?: /gm)];
    const charging = entries.filter((m, i) => table.slice(m.index, entries[i + 1]?.index ?? table.length).match(/\bextra\b/) !== null).map((m) => m[1] as CheckName);
    expect(charging.length).toBeGreaterThanOrEqual(3);
    for (const name of charging) expect([name, 'charges' in CHECKS[name]]).toEqual([name, true]);
  });
});
