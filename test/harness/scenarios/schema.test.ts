import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../../harness/errors.ts';
import { loadSuites, parseSuite, SUITES_DIR } from '../../../harness/scenarios/load.ts';
import { scenarioSchemaText } from '../../../harness/scenarios/schema.ts';
import { SUITES_README, suitesReadmeText } from '../../../harness/scenarios/tables.ts';
import { loadRegistry, sectionsOf, sectionsOfAll } from '../../../profile/registry.ts';

const HEADER = `suite: probe
title: probe
sections: ["§5.1"]
role: payee
scenarios:
`;

function failure(text: string): HarnessError {
  try {
    parseSuite(HEADER + text, 'suites/cpr/probe.yaml');
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error('the scenario file was accepted');
}

describe('the scenario schema', () => {
  it('is the file generated from the vocabulary (run `npm run scenario-schema` after changing it)', () => {
    expect(readFileSync(join(SUITES_DIR, 'scenario.schema.json'), 'utf8')).toBe(scenarioSchemaText());
  });

  it('has the tables of actions and checks in suites/README.md built from the same vocabulary (run `npm run scenario-schema`)', () => {
    const committed = readFileSync(SUITES_README, 'utf8');
    expect(committed).toBe(suitesReadmeText(committed));
    expect(committed).toContain('| `not_derived` |');
    // An edited row is not what the vocabulary gives.
    expect(suitesReadmeText(committed.replace('| `let` | `values`', '| `let` | `vals`'))).toBe(committed);
  });

  it('accepts every committed suite file', () => {
    expect(loadSuites().flatMap((s) => s.scenarios).length).toBeGreaterThan(0);
  });
});

describe('a bad scenario file fails with its file, line and reason', () => {
  const ok = `  - id: TOK-ONCE-901
    title: t
    requirements: [TOK-ONCE-1]
    level: MUST
    needs: [provision]
    steps:
      - do: create-request
        as: req
        expect: [{ matches: { value: "\${res.token}", pattern: "^[0-9a-f]{32,}$" } }]
`;
  it.each([
    ['broken YAML', `  - id: [unclosed\n`, /probe\.yaml:\d+:\d+: YAML: /],
    ['an unknown key in a step', `${ok}      - do: http\n        metod: GET\n        path: /x\n        expect: [{ status: 200 }]\n`, /probe\.yaml:16:\d+: .*unknown key "metod"/],
    ['an unknown action', `${ok}      - do: teleport\n`, /probe\.yaml:15:\d+: .*must be one of/],
    ['a scenario without requirements', `  - id: TOK-ONCE-901\n    title: t\n    level: MUST\n    steps: [{ do: keygen, names: [a] }]\n`, /probe\.yaml:6:\d+: .*missing "requirements"/],
    ['two checks in one entry', `${ok}      - do: http\n        method: GET\n        path: /x\n        expect: [{ status: 200, content_type: x }]\n`, /probe\.yaml:18:\d+: one expect entry holds 2 checks \(status, content_type\); give each check its own entry/],
  ])('%s', (_name, text, message) => {
    const error = failure(text);
    expect(error.code).toBe('SCENARIO_INVALID');
    expect(error.message).toMatch(message);
  });

  it.each([
    ['a requirement not in the registry', ok.replace('[TOK-ONCE-1]', '[TOK-NOPE-1]'), /:8: requirement TOK-NOPE-1 is not in suites\/requirements\.yaml/],
    ['an undeclared capability', ok.replace('    needs: [provision]\n', ''), /:11: TOK-ONCE-901: step "create-request" needs the "provision" capability/],
    ['a name used before it is captured', `${ok}      - do: http\n        method: GET\n        path: /cpr/\${token}\n        expect: [{ status: 200 }]\n`, /:15: TOK-ONCE-901: \$\{token\} is not defined at this step/],
    ['a key used before it exists', `${ok}      - do: status\n        pack_id: x\n        sign_as: alice\n        expect: [{ status: 200 }]\n`, /:15: TOK-ONCE-901: key "alice" \(sign_as\) is not defined yet/],
    ['setup: true on an action with no requirement of its own', `${ok}      - do: http\n        setup: true\n        method: GET\n        path: /x\n        expect: [{ status: 200 }]\n`, /:16: TOK-ONCE-901: a http step has no requirement of its own: write the one its checks prove/],
    ['a setup step that checks nothing', `${ok}      - do: http\n        setup: TOK-GET-1\n        method: GET\n        path: /x\n`, /:16: TOK-ONCE-901: a setup step without expect proves nothing/],
    ['a setup requirement not in the registry', `${ok}      - do: http\n        setup: TOK-NOPE-1\n        method: GET\n        path: /x\n        expect: [{ status: 200 }]\n`, /:15: TOK-ONCE-901: setup requirement TOK-NOPE-1 is not in suites\/requirements\.yaml/],
    // Every name the runtime looks up is checked when the file loads, not when the step runs.
    ['an unknown template function', `${ok}      - do: http\n        method: GET\n        path: "/cpr/\${tokn(req)}"\n        expect: [{ status: 200 }]\n`, /:15: TOK-ONCE-901: unknown function tokn\(\) in \$\{tokn\(req\)\}/],
    ['an unknown schema name', `${ok}      - do: http\n        method: GET\n        path: /x\n        expect: [{ schema: cash-pak }]\n`, /must be one of .*cash-pack/],
    ['a pattern that does not compile', `${ok}      - do: http\n        method: GET\n        path: /x\n        expect: [{ matches: { value: x, pattern: "(" } }]\n`, /:18: TOK-ONCE-901: matches: the pattern does not compile/],
    ['a repeat body reading a name captured only after the loop', `${ok}      - do: repeat\n        times: 2\n        steps:\n          - do: http\n            method: GET\n            path: /cpr/\${later}\n            expect: [{ status: 200 }]\n`, /:18: TOK-ONCE-901: \$\{later\} is not defined at this step/],
  ])('%s', (_name, text, message) => {
    const error = failure(text);
    expect(error.code).toBe('SCENARIO_INVALID');
    expect(error.message).toMatch(message);
  });

  it('reports a broken template as SCENARIO_INVALID with its line', () => {
    const error = failure(`${ok}      - do: http\n        method: GET\n        path: "/cpr/\${req.token"\n        expect: [{ status: 200 }]\n`);
    expect(error.message).toMatch(/probe\.yaml:15: TOK-ONCE-901: unterminated "\$\{"/);
  });

  it('rejects a scenario ID used twice across files', () => {
    const a = parseSuite(HEADER + ok, 'a.yaml');
    expect(a.scenarios[0]!.id).toBe('TOK-ONCE-901');
    expect(() => loadSuites([join(SUITES_DIR, 'cpr', '5.1-retrieval-token.yaml'), join(SUITES_DIR, 'cpr', '5.1-retrieval-token.yaml')])).toThrow(/already used/);
  });
});

describe('a scenario names its own spec sections', () => {
  const registry = new Map(loadRegistry().map((r) => [r.id, r]));
  const suites = loadSuites();

  it('the sections its requirements restate, not the whole file\'s list', () => {
    for (const scenario of suites.flatMap((s) => s.scenarios)) {
      expect(scenario.sections, scenario.id).toEqual(sectionsOfAll(scenario.requirements.map((id) => registry.get(id)!)));
    }
    // TOK-ONCE-001 proves §3.1's single use through the token of §5.1; its file lists more.
    const tokenOnce = suites.flatMap((s) => s.scenarios).find((s) => s.id === 'TOK-ONCE-001')!;
    const file = suites.find((s) => s.file === tokenOnce.file)!;
    expect(tokenOnce.sections.length).toBeGreaterThan(0);
    expect(tokenOnce.sections.length).toBeLessThan(file.sections.length);
  });

  it('a PROFILE-level requirement names PROFILE.md sections only', () => {
    // CPP-ERR-1 restates spec §7.1 at PROFILE level: its sections are PROFILE.md's.
    const profileLevel = registry.get('CPP-ERR-1')!;
    expect(profileLevel.level).toBe('PROFILE');
    expect(profileLevel.sections.length).toBeGreaterThan(0);
    expect(sectionsOf(profileLevel)).toEqual(profileLevel.profile_sections!.map((s) => `PROFILE ${s}`));
    const spec = loadRegistry().find((r) => r.level === 'MUST' && r.sections.length > 0)!;
    expect(sectionsOf(spec).slice(0, spec.sections.length)).toEqual(spec.sections);
  });
});
