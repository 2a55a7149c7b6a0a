import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport, reportJson, reportProblems, writeJsonReport } from '../../../harness/report/json.ts';
import { REPORT_SCHEMA_VERSION } from '../../../harness/report/model.ts';
import type { BaselineDiff, CheckResult, Coverage, Exchange, HarnessIssue, NotEvaluated, RepeatRecord, Report, RequirementResult, RunInfo, Summary, TargetDescription, TestResult } from '../../../harness/report/model.ts';
import schema from '../../../harness/report/report.schema.json' with { type: 'json' };
import { buildReport } from './fixture.ts';

type Presence<T> = { readonly [K in keyof T]-?: object extends Pick<T, K> ? 'optional' : 'required' };
type RoleTarget = NonNullable<TargetDescription['roles']['payee']>;

// Compile-time lists of each model type's members: a member added to model.ts
// without a schema change fails to compile here, and then fails below.
const report: Presence<Report> = { schema_version: 'required', verdict: 'required', run: 'required', summary: 'required', coverage: 'required', requirements: 'required', tests: 'required', baseline_diff: 'optional', errors: 'required' };
const run: Presence<RunInfo> = {
  suite_version: 'required', profile_version: 'required', spec_versions: 'required', target: 'required', seed: 'required', started_at: 'required', duration_ms: 'required',
  node_version: 'required', strict: 'required', profile_advisory: 'required', allow_partial: 'required', selection: 'required', shard: 'optional', repeat: 'optional', baseline: 'optional', command: 'required', incomplete: 'required',
};
const target: Presence<TargetDescription> = { name: 'required', embedded: 'required', profile_notice: 'optional', facts: 'optional', roles: 'required' };
const roleTarget: Presence<RoleTarget> = { adapter: 'required', base_url: 'optional', tls: 'required', capabilities: 'required', capabilities_note: 'optional' };
const summary: Presence<Summary> = { total: 'required', passed: 'required', failed: 'required', warned: 'required', skipped: 'required', not_applicable: 'required', error: 'required', warnings: 'required' };
const coverage: Presence<Coverage> = { roles: 'required', deciding: 'required', passed: 'required', failed: 'required', not_applicable: 'required', not_applicable_ids: 'required', untested: 'required', untested_ids: 'required' };
const requirement: Presence<RequirementResult> = { id: 'required', level: 'required', roles: 'required', sections: 'required', family: 'required', summary: 'required', status: 'required', deciding: 'required', reason: 'optional', basis: 'optional', unverifiable: 'optional', tests: 'required' };
const testResult: Presence<TestResult> = {
  id: 'required', title: 'required', kind: 'required', file: 'required', sections: 'required', requirements: 'required', level: 'required', role: 'required', status: 'required',
  warning: 'optional', duration_ms: 'required', reason: 'optional', basis: 'optional', error_code: 'optional', not_run: 'optional', missing_capabilities: 'optional', checks: 'required', not_evaluated: 'optional', left_out: 'optional', transcript: 'required', rerun: 'required', seed: 'optional', path: 'optional',
  known_failure: 'optional', repeat: 'optional',
};
const checkResult: Presence<CheckResult> = { check: 'required', requirement: 'required', level: 'required', passed: 'required', step: 'optional', expected: 'required', actual: 'required', message: 'required', setup: 'optional' };
const notEvaluated: Presence<NotEvaluated> = { check: 'required', requirement: 'required', step: 'optional', after: 'required' };
const exchange: Presence<Exchange> = { step: 'optional', role: 'required', request: 'required', response: 'optional', error: 'optional', duration_ms: 'required' };
const request: Presence<Exchange['request']> = { method: 'required', url: 'required', headers: 'required', body: 'optional' };
const response: Presence<NonNullable<Exchange['response']>> = { status: 'required', headers: 'required', body: 'optional', truncated: 'optional' };
const baseline: Presence<BaselineDiff> = { new_failures: 'required', unexpected_passes: 'required' };
const issue: Presence<HarnessIssue> = { code: 'required', message: 'required' };
const repeat: Presence<RepeatRecord> = { runs: 'required', requested: 'optional', passed: 'required', failed: 'required', errors: 'required', stability: 'required', median_ms: 'required' };

interface ObjectSchema {
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: boolean;
}
const defs = schema.$defs as unknown as Record<string, ObjectSchema>;
const def = (name: string): ObjectSchema => defs[name] ?? (() => { throw new Error(name); })();
const runDef = def('runInfo');
const exchangeDef = def('exchange');

describe('report.schema.json', () => {
  it.each<[string, Record<string, string>, ObjectSchema]>([
    ['Report', report, schema as unknown as ObjectSchema],
    ['RunInfo', run, runDef],
    ['TargetDescription', target, def('targetDescription')],
    ['role target', roleTarget, def('roleTarget')],
    ['Summary', summary, def('summary')],
    ['Coverage', coverage, def('coverage')],
    ['RequirementResult', requirement, def('requirementResult')],
    ['TestResult', testResult, def('testResult')],
    ['CheckResult', checkResult, def('checkResult')],
    ['NotEvaluated', notEvaluated, def('notEvaluated')],
    ['Exchange', exchange, exchangeDef],
    ['Exchange request', request, exchangeDef.properties['request'] as ObjectSchema],
    ['Exchange response', response, exchangeDef.properties['response'] as ObjectSchema],
    ['BaselineDiff', baseline, def('baselineDiff')],
    ['HarnessIssue', issue, def('harnessIssue')],
    ['RepeatRecord', repeat, def('repeatRecord')],
  ])('describes %s member for member, in model order, closed to others', (_name, model, node) => {
    expect(Object.keys(node.properties)).toEqual(Object.keys(model));
    expect([...node.required].sort()).toEqual(Object.keys(model).filter((k) => model[k] === 'required').sort());
    expect(node.additionalProperties).toBe(false);
  });

  it('accepts the fixture report', () => {
    expect(reportProblems(buildReport())).toEqual([]);
  });

  const mutations: [string, (r: Record<string, any>) => void, RegExp][] = [
    ['an unknown verdict', (r) => (r.verdict = 'pass'), /\/verdict: must be one of "conformant"/],
    ['an unknown test outcome', (r) => (r.tests[0].status = 'ok'), /\/tests\/0\/status: must be one of/],
    ['an unknown requirement status', (r) => (r.requirements[0].status = 'green'), /\/requirements\/0\/status/],
    ['an unknown level', (r) => (r.tests[1].checks[1].level = 'MUSTNT'), /\/tests\/1\/checks\/1\/level/],
    ['an unknown role', (r) => (r.tests[1].transcript[0].role = 'admin'), /\/tests\/1\/transcript\/0\/role/],
    ['an unknown TLS mode', (r) => (r.run.target.roles.payee.tls = 'maybe'), /\/run\/target\/roles\/payee\/tls/],
    ['an unknown role in the target', (r) => (r.run.target.roles.bank = { adapter: 'http', tls: 'none', capabilities: [] }), /has unknown member "bank"/],
    ['an extra top-level member', (r) => (r.extra = 1), /\(top level\): has unknown member "extra"/],
    ['an extra member in a test', (r) => (r.tests[0].passed = true), /\/tests\/0: has unknown member "passed"/],
    ['a missing summary count', (r) => delete r.summary.warnings, /\/summary: lacks required member "warnings"/],
    ['a summary without its count of warned tests', (r) => delete r.summary.warned, /\/summary: lacks required member "warned"/],
    ['a warning marker other than true', (r) => (r.tests[2].warning = false), /\/tests\/2\/warning: must be equal to constant/],
    ['a missing rerun command', (r) => delete r.tests[2].rerun, /\/tests\/2: lacks required member "rerun"/],
    ['a start time that is not a date-time', (r) => (r.run.started_at = 'yesterday'), /\/run\/started_at: must match format "date-time"/],
    ['another schema version', (r) => (r.schema_version = 2), /\/schema_version: must be equal to constant/],
    ['a negative count', (r) => (r.summary.total = -1), /\/summary\/total/],
    ['a header that is not a string', (r) => (r.tests[1].transcript[1].response.headers['x-n'] = 1), /\/tests\/1\/transcript\/1\/response\/headers\/x-n/],
  ];

  it.each(mutations)('rejects %s', (_name, mutate, problem) => {
    const mutated = structuredClone(buildReport()) as unknown as Record<string, any>;
    mutate(mutated);
    const problems = reportProblems(mutated);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(problem);
  });
});

describe('report.json on disk', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'cpr-report-'));

  it('round-trips through writeJsonReport and readReport', () => {
    const original = buildReport();
    const file = writeJsonReport(dir(), original);
    expect(file.endsWith('report.json')).toBe(true);
    expect(readReport(file)).toEqual(JSON.parse(JSON.stringify(original)));
  });

  it('writes two-space JSON with a trailing newline', () => {
    const text = readFileSync(writeJsonReport(dir(), buildReport()), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
    expect(text.split('\n')[1]).toBe(`  "schema_version": ${REPORT_SCHEMA_VERSION},`);
  });

  it('writes keys in model order whatever order the object was built in', () => {
    const built = buildReport();
    const scrambled = Object.fromEntries(Object.entries({ ...built, run: Object.fromEntries(Object.entries(built.run).reverse()) }).reverse()) as unknown as Report;
    const parsed = JSON.parse(reportJson(scrambled)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(parsed)).toEqual(Object.keys(report).filter((k) => k !== 'baseline_diff'));
    expect(Object.keys(parsed['run'] ?? {})).toEqual(Object.keys(run).filter((k) => k !== 'shard' && k !== 'repeat' && k !== 'baseline'));
    expect(reportJson(scrambled)).toBe(reportJson(built));
  });

  it('keeps free-form values (expected, actual, headers) as they are', () => {
    const parsed = JSON.parse(reportJson(buildReport())) as Report;
    const failed = parsed.tests.find((t) => t.id === 'CPR-ID-001');
    expect(Object.keys(failed?.transcript[1]?.response?.headers ?? {})).toEqual(['content-type', 'x-evil', 'link']);
    expect(Object.keys(failed?.checks[1]?.actual as object)).toEqual(['type', 'title', 'status', 'detail', 'code']);
  });

  it('refuses to write an invalid report', () => {
    const invalid = { ...buildReport(), verdict: 'maybe' } as unknown as Report;
    expect(() => writeJsonReport(dir(), invalid)).toThrow(/refusing to write an invalid report\.json:\n {2}- at \/verdict/);
  });

  it.each<[string, string, RegExp]>([
    ['fails schema validation', JSON.stringify({ ...buildReport(), verdict: 'maybe', extra: true }), /is not a valid report \(2 problems\):\n {2}- at/],
    ['is not JSON', '{"verdict": ', /is not JSON/],
  ])('readReport names the file and the first problems when it %s', (_name, content, message) => {
    const file = join(dir(), 'report.json');
    writeFileSync(file, content);
    expect(() => readReport(file)).toThrow(message);
    expect(() => readReport(file)).toThrow(file);
  });

  it('readReport lists at most five problems and counts the rest', () => {
    const file = join(dir(), 'report.json');
    const bad = buildReport();
    writeFileSync(file, JSON.stringify({ ...bad, tests: bad.tests.map((t) => ({ ...t, status: 'ok' })) }));
    expect(() => readReport(file)).toThrow(/\(8 problems\)[\s\S]*- \.\.\. and 3 more/);
  });

  it('readReport names a file that does not exist', () => {
    expect(() => readReport('/nonexistent/report.json')).toThrow(/cannot read report \/nonexistent\/report\.json/);
  });
});
