import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { junitClassname, junitXml } from '../../../harness/report/junit.ts';
import { shownOutcome } from '../../../harness/report/wording.ts';
import { buildReport, fixtureTests, HOSTILE, HOSTILE_PROBLEM, WARNING_CASES, type FixtureOptions } from './fixture.ts';
import { decodeEntities, scanMarkup, type Tag } from './markup.ts';

const report = buildReport();
const xml = junitXml(report);
const markup = scanMarkup(xml, 'xml');
const opening = (name: string) => markup.tags.filter((t) => t.name === name && !t.closing);
const attr = (tag: Tag | undefined, name: string) => decodeEntities(tag?.attributes.get(name) ?? '');

/** The elements inside the testcase for this test ID, up to its end tag. */
function testcaseTags(id: string): Tag[] {
  const start = markup.tags.findIndex((t) => t.name === 'testcase' && !t.closing && attr(t, 'name').startsWith(`${id} `));
  const end = markup.tags.findIndex((t, i) => i > start && t.name === 'testcase' && t.closing);
  return markup.tags.slice(start + 1, end);
}

describe('junitXml', () => {
  it('is well-formed XML with one <testsuites> root', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(markup.tags[0]?.name).toBe('testsuites');
    expect(xml.endsWith('</testsuites>\n')).toBe(true);
  });

  it.each([
    ['suites/2.1-cpr-base.yaml', { tests: 3, failures: 1, errors: 0, skipped: 0 }],
    ['suites/5.1-retrieval-token.yaml', { tests: 4, failures: 0, errors: 1, skipped: 2 }],
    ['suites/profile/1-encoding.yaml', { tests: 1, failures: 0, errors: 0, skipped: 0 }],
  ])('counts the tests of %s', (file, counts) => {
    const suite = opening('testsuite').find((t) => attr(t, 'name') === file);
    for (const [key, value] of Object.entries(counts)) expect(attr(suite, key), key).toBe(String(value));
    expect(attr(suite, 'time')).toMatch(/^\d+\.\d{3}$/);
  });

  it('totals every test on <testsuites>, with the run duration in seconds (no skipped or timestamp: junit-10.xsd has none there)', () => {
    const root = opening('testsuites')[0];
    expect([attr(root, 'tests'), attr(root, 'failures'), attr(root, 'errors'), attr(root, 'time')]).toEqual(['8', '1', '1', '4.321']);
    expect([...root!.attributes.keys()].sort()).toEqual(['errors', 'failures', 'name', 'tests', 'time']);
  });

  it('writes one testcase per test, classname the suite without file-path dots, name "<id> <title>"', () => {
    const cases = opening('testcase');
    expect(cases.map((t) => attr(t, 'name'))).toEqual(report.tests.map((t) => `${t.id} ${t.title}`));
    expect(cases.map((t) => attr(t, 'classname'))).toEqual(report.tests.map((t) => junitClassname(t.file)));
    expect(attr(cases[0], 'time')).toBe('0.012');
  });

  it.each([
    ['suites/cashpack/4.2-renew.yaml', 'cashpack.4_2-renew'],
    ['suites/2.1-cpr-base.yaml', '2_1-cpr-base'],
    ['suites/profile/1-encoding.yaml', 'profile.1-encoding'],
    ['../../tmp/fuzz-1/regression-42.yaml', 'regression-42'],
    ['harness/properties/catalogue.ts', 'catalogue'],
  ])('names the class of %s %s: folders as packages, no dot of a file name', (file, classname) => {
    expect(junitClassname(file)).toBe(classname);
  });

  it.each([
    ['CPR-VER-001', []],
    ['CPR-ID-001', ['failure', 'system-out']],
    ['CPR-ID-002', ['system-out']],
    ['TOK-EXP-001', ['skipped']],
    ['TOK-TLS-001', ['skipped']],
    ['TOK-ONCE-001', ['error', 'system-out']],
  ])('gives %s the outcome elements %j', (id, elements) => {
    const names = testcaseTags(id).filter((t) => !t.closing && t.name !== 'properties' && t.name !== 'property').map((t) => t.name);
    expect(names).toEqual(elements);
  });

  it('types a failure with its requirement IDs and gives expected vs actual and the rerun command', () => {
    const failure = testcaseTags('CPR-ID-001').find((t) => t.name === 'failure');
    expect(attr(failure, 'type')).toBe('CPR-ID-1');
    expect(attr(failure, 'message')).toContain('CPR-ID-1 problem: problem code is');
    const body = decodeEntities(xml.slice(xml.indexOf('<failure'), xml.indexOf('</failure>')));
    expect(body).toContain('expected: {\n  "status": 400,\n  "code": "INVALID_REQUEST"\n}');
    expect(body).toContain(`"title": "${HOSTILE.script}"`);
    expect(body).toContain('rerun: npx cpr-conformance run --only CPR-ID-001 --seed 42');
  });

  it.each([
    ['TOK-EXP-001', 'skipped: the target cannot advance its clock (missing capability: clock)'],
    ['TOK-TLS-001', 'not applicable: the target is in-process: no transport'],
  ])('reports %s as skipped with why', (id, message) => {
    expect(attr(testcaseTags(id).find((t) => t.name === 'skipped'), 'message')).toBe(message);
  });

  it('says a test the guard held back was not run, from its not_run field', () => {
    const tests = fixtureTests().map((t) => (t.id === 'TOK-ONCE-001' ? { ...t, checks: [], transcript: [], error_code: 'HARNESS_DEADLINE_EXCEEDED' as const, not_run: true as const, reason: "the run's time limit passed" } : t));
    const out = junitXml(buildReport({ tests }));
    const at = out.indexOf('<error', out.indexOf('name="TOK-ONCE-001 '));
    expect(decodeEntities(out.slice(at, out.indexOf('>', at)))).toContain(`message="HARNESS_DEADLINE_EXCEEDED: not run: the run's time limit passed"`);
  });

  it('gives a testcase no properties (junit-10.xsd has none there): its requirements, level, role and seed are in its output', () => {
    expect(testcaseTags('CPR-ID-001').some((t) => t.name === 'properties' || t.name === 'property')).toBe(false);
    const at = xml.indexOf('<system-out>', xml.indexOf('name="CPR-ID-001 '));
    expect(decodeEntities(xml.slice(at, xml.indexOf('</system-out>', at)))).toMatch(/^<system-out>requirements CPR-ID-1; level MUST; role payee; sections §2\.1; file suites\/2\.1-cpr-base\.yaml\n/);
  });

  it('shows what the target answered beside each failed check, in the failure message and its text', () => {
    const tests = fixtureTests().map((t) => (t.id === 'CPR-ID-001' ? { ...t, transcript: t.transcript.map((e, i) => (i === 1 ? { ...e, response: { ...e.response!, body: JSON.stringify(HOSTILE_PROBLEM) } } : e)) } : t));
    const out = junitXml(buildReport({ tests }));
    const at = out.indexOf('<failure', out.indexOf('name="CPR-ID-001 '));
    const failure = decodeEntities(out.slice(at, out.indexOf('</failure>', at)));
    const answer = `POST /v1/cpr answered 400, problem ${HOSTILE.ansi.replace(/\u001b/g, '\\u001b')}: ${HOSTILE.img} ${HOSTILE.svg} ${HOSTILE.pre}`;
    expect(failure).toContain(`  answer:   ${answer}`);
    expect(attr(scanMarkup(out, 'xml').tags.find((t) => t.name === 'failure'), 'message')).toContain(`(${answer})`);
  });

  it('escapes hostile text: no element or attribute comes from the target', () => {
    const names = new Set(markup.tags.map((t) => t.name));
    expect([...names].sort()).toEqual(['error', 'failure', 'properties', 'property', 'skipped', 'system-out', 'testcase', 'testsuite', 'testsuites']);
    expect(xml).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(xml).toContain('&quot;&gt;&lt;svg onload=alert(1)&gt;');
    expect(xml).not.toMatch(/<(script|img|svg|b)\b/);
  });

  describe.each(WARNING_CASES)('for %s (%s), shown as a %s', (_name, id, shown, options) => {
    const out = junitXml(buildReport(options));
    const tags = scanMarkup(out, 'xml').tags;
    const start = tags.findIndex((t) => t.name === 'testcase' && !t.closing && attr(t, 'name').startsWith(`${id} `));
    const inside = tags.slice(start + 1, tags.findIndex((t, i) => i > start && t.name === 'testcase' && t.closing));

    it(shown === 'warning' ? 'writes no <failure>' : 'writes a <failure>', () => {
      expect(inside.some((t) => t.name === 'failure')).toBe(shown === 'failed');
    });

    it('counts failures without the warnings, on every suite and on the root', () => {
      const report = buildReport(options);
      const root = tags.find((t) => t.name === 'testsuites');
      const suites = tags.filter((t) => t.name === 'testsuite' && !t.closing);
      expect(attr(root, 'failures')).toBe(String(report.summary.failed + report.tests.filter((t) => t.error_code === 'HARNESS_SETUP_FAILED').length));
      expect(suites.reduce((sum, t) => sum + Number(attr(t, 'failures')), 0)).toBe(Number(attr(root, 'failures')));
      const warned = tags.find((t) => t.name === 'property' && attr(t, 'name') === 'warned');
      expect(attr(warned, 'value')).toBe(String(report.summary.warned));
    });

    if (shown === 'warning') {
      it('says in <system-out> that it is a warning, with expected vs actual and the rerun command', () => {
        const at = out.indexOf('<system-out>', out.indexOf(`name="${id} `));
        const body = decodeEntities(out.slice(at, out.indexOf('</system-out>', at)));
        expect(body).toMatch(/^<system-out>requirements [\s\S]*?\n\nwarning, not a failure: a failure at a level that does not decide this run/);
        expect(body).toContain('  expected: ');
        expect(body).toContain(`rerun: npx cpr-conformance run --only ${id} --seed 42`);
      });
    }
  });

  it('keeps multi-line messages in attributes as character references', () => {
    const tests = [{ ...fixtureTests()[4]!, reason: 'line one\nline two\tend' }];
    const out = junitXml(buildReport({ tests }));
    expect(out).toContain('message="not applicable: line one&#10;line two&#9;end"');
  });

  it('replaces characters XML 1.0 forbids (controls, lone surrogates, U+FFFE/U+FFFF)', () => {
    const hostile = `nul\u0000 bell\u0007 esc${HOSTILE.ansi} lone\ud800 high\udfff non\ufffe\uffff c1\u0085`;
    const tests = [{ ...fixtureTests()[5]!, reason: hostile, title: hostile }];
    const out = junitXml(buildReport({ tests }));
    scanMarkup(out, 'xml');
    expect(out.isWellFormed()).toBe(true);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]/);
    expect(out).toContain('nul\\u0000 bell\\u0007 esc\\u001b[31mRED\\u001b[0m lone\ufffd high\ufffd non\\ufffe\\uffff c1\\u0085');
  });
});

/** Jenkins xUnit's schema for JUnit files (jenkinsci/xunit-plugin, MIT), as published. */
const JUNIT_XSD = readFileSync(new URL('../../fixtures/junit-10.xsd', import.meta.url), 'utf8');

async function xsdErrors(file: string): Promise<string[]> {
  const result = await validateXML({ xml: { fileName: 'junit.xml', contents: file }, schema: { fileName: 'junit-10.xsd', contents: JUNIT_XSD } });
  return result.errors.map((e) => e.rawMessage);
}

describe('junit.xml against junit-10.xsd (xmllint)', () => {
  it('rejects what the schema forbids: the validator is not a rubber stamp', async () => {
    expect(await xsdErrors('<testsuites><testsuite name="a" tests="1" failures="0" errors="0"><testcase name="x"><properties/></testcase></testsuite></testsuites>')).not.toEqual([]);
    expect(await xsdErrors('<testsuites timestamp="2026-01-01T00:00:00Z"/>')).not.toEqual([]);
  });

  it.each<[string, FixtureOptions]>([
    ['every outcome and hostile text', {}],
    ...WARNING_CASES.map(([name, , , options]): [string, FixtureOptions] => [`warnings: ${name}`, options]),
  ])('validates for %s', async (_name, options) => {
    expect(await xsdErrors(junitXml(buildReport(options)))).toEqual([]);
  });

  it('validates with run-level harness errors and repeated, flaky tests', async () => {
    const tests = fixtureTests().map((t) => (t.status === 'failed' ? { ...t, repeat: { runs: 3, passed: 1, failed: 2, errors: 0, stability: 'flaky' as const, median_ms: 4 } } : t));
    const out = junitXml(buildReport({ tests, errors: [{ code: 'INTERRUPTED', message: 'the run was interrupted' }] }));
    expect(await xsdErrors(out)).toEqual([]);
  });
});

/**
 * How GitLab's test report reads a JUnit file (lib/gitlab/ci/parsers/test/junit.rb):
 * one top-level <testsuites>, each <testsuite>'s <testcase> children, the
 * status from the first of <failure>, <error>, <skipped> (else success), and
 * that element's text as the detail it shows.
 */
function gitlabCases(file: string): { name: string; classname: string; status: string; detail: string }[] {
  const cases: { name: string; classname: string; status: string; detail: string }[] = [];
  for (const match of file.matchAll(/<testcase ([^>]*)>([\s\S]*?)<\/testcase>/g)) {
    const attrs = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], decodeEntities(m[2]!)]));
    const body = match[2]!;
    const element = ['failure', 'error', 'skipped'].find((name) => new RegExp(`<${name}[ >/]`).test(body));
    const text = element === undefined ? '' : decodeEntities(new RegExp(`<${element}[^>]*?(?:/>|>([\\s\\S]*?)</${element}>)`).exec(body)?.[1] ?? '');
    cases.push({ name: attrs['name']!, classname: attrs['classname']!, status: element ?? 'success', detail: text });
  }
  return cases;
}

describe("junit.xml as GitLab's test report reads it", () => {
  const report = buildReport();
  const cases = gitlabCases(junitXml(report));

  it('finds every test, with its status', () => {
    const status = { passed: 'success', warning: 'success', failed: 'failure', error: 'error', skipped: 'skipped', 'not-applicable': 'skipped' } as const;
    expect(cases.map((c) => [c.name.split(' ')[0], c.status])).toEqual(report.tests.map((t) => [t.id, status[shownOutcome(t)]]));
    expect(cases.every((c) => c.classname !== '' && !c.classname.includes('/'))).toBe(true);
  });

  it('shows a failure its checks, expected vs actual, the answer and the rerun command', () => {
    const failed = cases.find((c) => c.name.startsWith('CPR-ID-001 '))!;
    expect(failed.detail).toContain('CPR-ID-1 (MUST) problem, step 2: problem code is');
    expect(failed.detail).toContain('  answer:   POST /v1/cpr answered 400, body');
    expect(failed.detail).toContain('rerun: npx cpr-conformance run --only CPR-ID-001 --seed 42');
  });
});
