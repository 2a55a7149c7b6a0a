// Who runs alone (harness/runner/shared-state.ts): derived from declarations
// that these tests hold to the profile's route table and to the code that
// sends the requests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movesSharedState } from '../../profile/control.ts';
import { PROPERTIES } from '../../harness/properties/catalogue.ts';
import { PROPERTIES_FILE } from '../../harness/properties/types.ts';
import { planOf, testId } from '../../harness/runner/plan.ts';
import { aloneReason, runsAlone } from '../../harness/runner/shared-state.ts';
import { loadSuites, parseSuite, PROJECT_ROOT } from '../../harness/scenarios/load.ts';
import { ACTIONS, type ActionSpec } from '../../harness/scenarios/vocabulary.ts';

const source = (file: string) => readFileSync(join(PROJECT_ROOT, file), 'utf8');

/** The request rows of PROFILE.md §12's table: capability, method and path (`{x}` a parameter). */
function controlRoutes(): { capability: string; method: string; path: string }[] {
  const profile = source('PROFILE.md');
  const section = profile.slice(profile.indexOf('## 12. Test-control interface'), profile.indexOf('## 13.'));
  return [...section.matchAll(/^\| (\w+|\(discovery\)) \| `(GET|POST|DELETE|PUT|PATCH) (\/_control\/[^`\s]*)`/gm)].map((m) => ({ capability: m[1]!, method: m[2]!, path: m[3]!.replace(/\{[a-z_]+\}/g, 'x1') }));
}

/** What PROFILE.md §12 says moves state every client shares: the clock and its lease ("Only the clock is guarded"), never a read. */
const SHARED_CAPABILITIES = new Set(['clock', 'lease']);

describe('the shared-state routes', () => {
  it('are exactly the requests of PROFILE.md §12 that change the clock or its lease', () => {
    const routes = controlRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(15);
    for (const { capability, method, path } of routes) expect([capability, method, path, movesSharedState(method, path)]).toEqual([capability, method, path, method !== 'GET' && SHARED_CAPABILITIES.has(capability)]);
  });
});

/** The source of each action of ACTION_IMPLEMENTATIONS, by name: from its key to the next one. */
function actionSources(): Map<string, string> {
  const text = source('harness/scenarios/actions/table.ts');
  const body = text.slice(text.indexOf('export const ACTION_IMPLEMENTATIONS'), text.indexOf('\n};\n', text.indexOf('export const ACTION_IMPLEMENTATIONS')));
  const keys = [...body.matchAll(/^ {2}'?([a-z-]+)'?: /gm)];
  return new Map(keys.map((m, i) => [m[1]!, body.slice(m.index, keys[i + 1]?.index ?? body.length)]));
}

/** The literal paths of the §12 routes that move shared state, as code writes them (up to a parameter). */
const sharedPaths = () => [...new Set(controlRoutes().filter((r) => movesSharedState(r.method, r.path)).map((r) => r.path.replace(/\/x1$/, '')))];

describe('the declarations', () => {
  it('mark every action whose implementation sends a shared-state route as sharing it', () => {
    const sources = actionSources();
    expect(sources.size).toBeGreaterThan(20);
    const sending = [...sources].filter(([, code]) => sharedPaths().some((path) => code.includes(`'${path}`)));
    expect(sending.map(([name]) => name)).toContain('clock');
    for (const [name] of sending) expect([name, (ACTIONS[name as keyof typeof ACTIONS] as ActionSpec).shares]).toEqual([name, expect.any(String)]);
  });

  it('mark every property whose file moves the clock (or sets up on a clock frozen under a tight policy) as sharing it', () => {
    const moving = /setClock\(|restoreClock\(|operatorSetup\(/;
    for (const property of PROPERTIES) {
      const code = source(property.file ?? PROPERTIES_FILE);
      // Needing test control's clock or lease is the declaration's own sign; the source text catches the rest.
      const moves = property.needs.includes('clock') || property.needs.includes('lease') || moving.test(code) || sharedPaths().some((path) => code.includes(`'${path}`));
      if (moves) expect([property.id, property.shares]).toEqual([property.id, expect.any(String)]);
    }
    expect(PROPERTIES.filter((p) => p.shares !== undefined).length).toBeGreaterThan(0);
  });

  it("mark every property that sets the process's time zone as sharing state, and run it alone", () => {
    const zoned = PROPERTIES.filter((p) => source(p.file ?? PROPERTIES_FILE).includes('inZone('));
    expect(zoned.map((p) => p.id)).toContain('PROP-APP-011');
    for (const property of zoned) expect([property.id, property.shares]).toEqual([property.id, expect.any(String)]);
    const app = PROPERTIES.find((p) => p.id === 'PROP-APP-011')!;
    expect(runsAlone({ kind: 'property', property: app }, { tightPolicy: false })).toMatch(/time zone/);
  });
});

describe('runsAlone', () => {
  const plan = planOf(loadSuites().flatMap((s) => s.scenarios), PROPERTIES);
  const alone = (tightPolicy: boolean) => plan.filter((t) => runsAlone(t, { tightPolicy }) !== undefined).map(testId);

  it('runs alone each scenario with a step that moves the clock, and each property that declares it, and lets the rest run beside others', () => {
    const clockSteps = plan.filter((t) => t.kind === 'scenario' && JSON.stringify(t.scenario.steps).includes('"action":"clock"')).map(testId);
    expect(clockSteps.length).toBeGreaterThan(10);
    expect(alone(false)).toEqual(expect.arrayContaining([...clockSteps, 'PROP-OP-012', 'PROP-CTL-002', 'PROP-PAYEE-012']));
    // Their own accounts only: beside others unless the policy is tight.
    expect(alone(false)).not.toContain('PROP-OP-010');
    expect(alone(false)).not.toContain('PROP-OP-014');
    expect(alone(true)).toContain('PROP-OP-014');
    expect(alone(false).length).toBeLessThan(plan.length / 4);
  });

  it('runs every Operator test alone under a tight policy, where its clock is frozen', () => {
    const operator = plan.filter((t) => (t.kind === 'scenario' ? t.scenario.role : t.property.role) === 'operator' && (t.kind === 'scenario' || t.property.shares !== undefined)).map(testId);
    expect(alone(true)).toEqual(expect.arrayContaining(operator));
  });

  it('runs alone a step that sends a shared-state route through `http`, its path written out or templated', () => {
    const suite = (path: string, method = 'POST') =>
      parseSuite(`suite: probe\ntitle: probe\nsections: ["§5.1"]\nrole: payee\nscenarios:\n  - id: TOK-GET-970\n    title: t\n    requirements: [TOK-GET-1]\n    level: MUST\n    steps:\n      - do: let\n        values: { id: x, what: clock, req: { token: t } }\n      - do: http\n        method: ${method}\n        path: "${path}"\n        expect: [{ status: 200 }]\n`, 'suites/cpr/probe.yaml').scenarios;
    const why = (path: string, method?: string) => runsAlone({ kind: 'scenario', scenario: suite(path, method)[0]! }, { tightPolicy: false });
    expect(why('/_control/clock')).toMatch(/^step 2 sends POST \/_control\/clock/);
    expect(why('/_control/lease/${id}', 'DELETE')).toBeDefined();
    expect(why('/_control/${what}')).toBeDefined();
    expect(why('/_control/clock', 'GET')).toBeUndefined();
    expect(why('/cpr/${req.token}')).toBeUndefined();
    expect(why('/_control/operator/principals')).toBeUndefined();
  });

  it("says whose state a test moves: the target's own (its clock, its lease: a twin of the target has its own) or the process's (the time zone)", () => {
    const scope = (tightPolicy: boolean) => new Map(plan.flatMap((t) => { const reason = aloneReason(t, { tightPolicy }); return reason ? [[testId(t), reason.scope] as const] : []; }));
    const loose = scope(false);
    expect(loose.get('PROP-APP-011')).toBe('process');
    // The properties that set the time zone, PROP-OP-012 and PROP-PAYEE-012 while they move the clock too: alone in the process, never on a twin beside an in-process paying application.
    expect([...loose].filter(([, s]) => s === 'process').map(([id]) => id).sort()).toEqual(['PROP-APP-011', 'PROP-OP-012', 'PROP-PAYEE-012']);
    for (const id of ['PROP-CTL-001', 'PROP-CTL-002', 'PROP-PAYEE-013', 'TOK-EXP-001']) expect([id, loose.get(id)]).toEqual([id, 'target']);
    // Frozen under a tight policy: the Operator's clock, the target's.
    expect(scope(true).get('PROP-OP-014')).toBe('target');
    for (const t of plan) expect(aloneReason(t, { tightPolicy: true })?.why).toBe(runsAlone(t, { tightPolicy: true }));
  });
});
