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
import { loadRegistry } from '../../../profile/registry.ts';

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

/** Every parameter name a set of schemas declares, at any depth (`resign.key`, a parallel step's `pack_id`). */
function declaredIn(schemas: readonly unknown[]): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties') for (const name of Object.keys(value as object)) names.add(name);
      walk(value);
    }
  };
  schemas.forEach(walk);
  return names;
}

function drift(reads: Set<string>, declared: Set<string>, passedOn: Readonly<Record<string, string>>) {
  return { undeclared: [...reads].filter((n) => !declared.has(n)).sort(), unread: [...declared].filter((n) => !reads.has(n) && !(n in passedOn)).sort() };
}

const actionDeclared = () => {
  const names = declaredIn(Object.values(ACTIONS).map((a) => a.params));
  for (const a of Object.values(ACTIONS)) for (const name of Object.keys(a.params)) names.add(name);
  return names;
};

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

  it('names, for every setup requirement and every extra a check can charge, a requirement of the registry', () => {
    const ids = new Set(loadRegistry().map((r) => r.id));
    const setup = (Object.keys(ACTIONS) as ActionName[]).flatMap((name) => setupRequirementOf(name) ?? []);
    const charged = (Object.keys(CHECKS) as CheckName[]).flatMap((name) => [...extraRequirements(name, 'INVALID_SIGNATURE'), ...extraRequirements(name, {})]);
    expect(setup.length).toBeGreaterThanOrEqual(6);
    expect(charged.length).toBeGreaterThanOrEqual(3);
    expect([...setup, ...charged].filter((id) => !ids.has(id))).toEqual([]);
  });

  it('gates on the checks that judge an outcome, and on no other', () => {
    expect((Object.keys(CHECKS) as CheckName[]).filter(gatesLaterChecks).sort()).toEqual(['accepted', 'all', 'exactly_one', 'not_status', 'problem', 'rejected', 'status']);
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
