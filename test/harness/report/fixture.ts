// A realistic report for the reporter tests: real registry IDs, every outcome,
// and a hostile implementation whose responses try to break every view.
import { loadRegistry } from '../../../profile/registry.ts';
import { assess } from '../../../harness/report/aggregate.ts';
import { REPORT_SCHEMA_VERSION, type CheckResult, type Exchange, type HarnessIssue, type Report, type RunInfo, type TestResult } from '../../../harness/report/model.ts';

/** What a hostile target puts in its responses. */
export const HOSTILE = {
  script: '<script>alert(1)</script>',
  img: '<img src=x onerror=alert(1)>',
  svg: '"><svg onload=alert(1)>',
  pre: '</pre><script>alert(2)</script>',
  js: 'javascript:alert(1)',
  ansi: '\u001b[31mRED\u001b[0m',
  textarea: '</textarea><b>bold</b>',
  link: '[click me](javascript:alert(1))',
  pipes: 'a | b || c',
  emphasis: '*strong* _em_ ~~gone~~ `code`',
  autolinks: 'https://evil.example/x www.evil.example pay@evil.example :smile: :100:',
} as const;

/** A response body with every payload, backtick runs that would close a naive fence, and CRLF. */
export const HOSTILE_BODY = [
  '```',
  Object.values(HOSTILE).join('\n'),
  '````js',
  'alert(document.cookie)',
  '````',
  '\u202eevil bidi override',
].join('\r\n');

export const HOSTILE_PROBLEM = {
  type: HOSTILE.js,
  title: HOSTILE.script,
  status: 400,
  detail: `${HOSTILE.img} ${HOSTILE.svg} ${HOSTILE.pre}`,
  code: HOSTILE.ansi,
};

const RERUN = (id: string) => `npx cpr-conformance run --only ${id} --seed 42`;

function check(requirement: string, passed: boolean, overrides: Partial<CheckResult> = {}): CheckResult {
  return { check: 'status', requirement, level: 'MUST', passed, step: '1', expected: 200, actual: passed ? 200 : 500, message: passed ? 'status is 200' : 'status is not 200', ...overrides };
}

function test(overrides: Partial<TestResult> & Pick<TestResult, 'id' | 'requirements' | 'status'>): TestResult {
  return {
    title: `checks ${overrides.requirements.join(', ')}`,
    kind: 'scenario',
    file: 'suites/2.1-cpr-base.yaml',
    sections: ['§2.1'],
    level: 'MUST',
    role: 'payee',
    duration_ms: 12,
    checks: [],
    transcript: [],
    rerun: RERUN(overrides.id),
    ...overrides,
  };
}

const hostileExchange: Exchange = {
  step: '2',
  role: 'payee',
  request: { method: 'POST', url: 'http://127.0.0.1:8080/v1/cpr', headers: { 'content-type': 'application/json' }, body: '{"amount":"10.00"}' },
  response: {
    status: 400,
    headers: { 'content-type': 'application/problem+json', 'x-evil': HOSTILE.svg, link: `<${HOSTILE.js}>; rel="next"` },
    body: HOSTILE_BODY,
    truncated: true,
  },
  duration_ms: 7,
};

/** Every outcome, in three suite files; IDs from the real registry. */
export function fixtureTests(): TestResult[] {
  return [
    test({ id: 'CPR-VER-001', title: 'accepts cpr_version CPR-1.0', requirements: ['CPR-VER-1'], status: 'passed', role: 'paying-app', checks: [check('CPR-VER-1', true)] }),
    test({
      id: 'CPR-ID-001',
      title: `rejects a request without request_id ${HOSTILE.pipes}`,
      requirements: ['CPR-ID-1'],
      status: 'failed',
      checks: [
        check('CPR-ID-1', true, { step: '1' }),
        check('CPR-ID-1', false, { check: 'problem', step: '2', expected: { status: 400, code: 'INVALID_REQUEST' }, actual: HOSTILE_PROBLEM, message: `problem code is ${HOSTILE.img}` }),
      ],
      transcript: [{ ...hostileExchange, step: '1', response: { status: 201, headers: {}, body: '{}' } }, hostileExchange],
    }),
    test({
      id: 'CPR-ID-002',
      title: 'request_id is a UUIDv4',
      requirements: ['CPR-ID-2'],
      level: 'SHOULD',
      status: 'failed',
      checks: [check('CPR-ID-2', false, { check: 'schema', level: 'SHOULD', expected: 'a UUIDv4', actual: HOSTILE_BODY, message: 'request_id is not a UUIDv4' })],
    }),
    test({
      id: 'TOK-EXP-001',
      title: 'an expired retrieval token is refused',
      file: 'suites/5.1-retrieval-token.yaml',
      sections: ['§5.1', '§8'],
      requirements: ['TOK-EXP-1'],
      status: 'skipped',
      reason: 'the target cannot advance its clock',
      missing_capabilities: ['clock'],
    }),
    test({
      id: 'TOK-TLS-001',
      title: 'retrieval is refused over plain HTTP',
      file: 'suites/5.1-retrieval-token.yaml',
      sections: ['§5.1'],
      requirements: ['TOK-TLS-1'],
      status: 'not-applicable',
      reason: 'the target is in-process: no transport',
    }),
    test({
      id: 'TOK-ONCE-001',
      title: 'a retrieval token works once',
      file: 'suites/5.1-retrieval-token.yaml',
      sections: ['§5.1'],
      requirements: ['TOK-ONCE-1'],
      status: 'error',
      reason: `setup failed: provision answered ${HOSTILE.script}`,
      transcript: [{ step: '1', role: 'payee', request: { method: 'POST', url: 'http://127.0.0.1:8080/_control/provision', headers: {} }, error: `ECONNRESET ${HOSTILE.ansi}`, duration_ms: 3 }],
    }),
    test({
      id: 'TOK-RACE-001',
      title: 'exactly one of ten concurrent retrievals succeeds',
      file: 'suites/5.1-retrieval-token.yaml',
      sections: ['§5.1'],
      requirements: ['TOK-RACE-1'],
      status: 'passed',
      checks: [check('TOK-RACE-1', true, { check: 'exactly_one', expected: 1, actual: 1, message: 'one success' })],
    }),
    test({
      id: 'PRF-JSON-P01',
      title: 'JSON bodies are UTF-8 without BOM (property)',
      kind: 'property',
      file: 'suites/profile/1-encoding.yaml',
      sections: ['PROFILE §1'],
      requirements: ['PRF-JSON-1'],
      level: 'PROFILE',
      status: 'passed',
      seed: 42,
      path: '0:1',
      checks: [check('PRF-JSON-1', true, { check: 'schema', level: 'PROFILE' })],
    }),
  ];
}

/** The fixture with its PROFILE-level property failed as well: a departure from the wire profile, and nothing else. */
export function fixtureWithProfileFailure(): TestResult[] {
  return fixtureTests().map((t) =>
    t.id === 'PRF-JSON-P01' ? { ...t, status: 'failed', reason: 'a body starts with a BOM', checks: [check('PRF-JSON-1', false, { check: 'schema', level: 'PROFILE', message: 'a body starts with a BOM' })] } : t,
  );
}

/**
 * A failure at a level that does not decide is a warning in every view, and the
 * same failure where its level decides is a failure: [case, the test, how it is
 * shown, report options]. CPR-ID-002 fails a SHOULD only; PRF-JSON-P01 a PROFILE rule only.
 */
export const WARNING_CASES: readonly (readonly [string, string, 'warning' | 'failed', FixtureOptions])[] = [
  ['a SHOULD failure without --strict', 'CPR-ID-002', 'warning', {}],
  ['the same SHOULD failure under --strict', 'CPR-ID-002', 'failed', { strict: true }],
  ['a PROFILE failure under --profile-advisory', 'PRF-JSON-P01', 'warning', { tests: fixtureWithProfileFailure(), profileAdvisory: true }],
  ['the same PROFILE failure without --profile-advisory', 'PRF-JSON-P01', 'failed', { tests: fixtureWithProfileFailure() }],
];

export interface FixtureOptions {
  readonly tests?: readonly TestResult[];
  readonly strict?: boolean;
  readonly profileAdvisory?: boolean;
  readonly run?: Partial<RunInfo>;
  readonly errors?: readonly HarnessIssue[];
}

/** A report as the run builds it: requirements, summary and verdict from aggregate.ts. */
export function buildReport(options: FixtureOptions = {}): Report {
  const tests = options.tests ?? fixtureTests();
  const strict = options.strict ?? false;
  const profileAdvisory = options.profileAdvisory ?? false;
  const errors = options.errors ?? [];
  const assessed = assess(loadRegistry(), tests, errors, { strict, profileAdvisory, scopeRoles: ['payee', 'operator'] });
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    verdict: assessed.verdict,
    run: {
      suite_version: '0.1.0',
      profile_version: 'CPP-PROFILE-1.0',
      spec_versions: { cpr: '1.0.0-draft', cpp: '1.0.0-draft' },
      target: {
        name: `acme-pay staging ${HOSTILE.svg}`,
        embedded: false,
        roles: {
          payee: { adapter: 'http', base_url: 'https://payee.example.test', tls: 'verified', capabilities: ['provision', 'cancel'] },
          operator: { adapter: 'http', base_url: 'https://operator.example.test', tls: 'insecure', capabilities: [] },
        },
      },
      seed: 42,
      started_at: '2025-01-15T10:00:00.000Z',
      duration_ms: 4321,
      node_version: 'v20.11.1',
      strict,
      profile_advisory: profileAdvisory,
      allow_partial: false,
      selection: { only: [], roles: [] },
      command: ['cpr-conformance', 'run', '--target', 'target.yaml', '--seed', '42'],
      incomplete: false,
      ...options.run,
    },
    summary: assessed.summary,
    coverage: assessed.coverage,
    requirements: assessed.requirements,
    tests: assessed.tests,
    errors,
  };
}
