import { describe, expect, it } from 'vitest';
import { junitXml } from '../../../harness/report/junit.ts';
import { buildReport, fixtureTests, HOSTILE, WARNING_CASES } from './fixture.ts';
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

  it('totals every test on <testsuites>, with the run duration in seconds', () => {
    const root = opening('testsuites')[0];
    expect([attr(root, 'tests'), attr(root, 'failures'), attr(root, 'errors'), attr(root, 'skipped'), attr(root, 'time')]).toEqual(['8', '1', '1', '2', '4.321']);
  });

  it('writes one testcase per test, classname the suite file, name "<id> <title>"', () => {
    const cases = opening('testcase');
    expect(cases.map((t) => attr(t, 'name'))).toEqual(report.tests.map((t) => `${t.id} ${t.title}`));
    expect(cases.map((t) => attr(t, 'classname'))).toEqual(report.tests.map((t) => t.file));
    expect(attr(cases[0], 'time')).toBe('0.012');
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

  it('lists requirement IDs, level and role as testcase properties', () => {
    const props = Object.fromEntries(testcaseTags('PRF-JSON-P01').filter((t) => t.name === 'property').map((t) => [attr(t, 'name'), attr(t, 'value')]));
    expect(props).toEqual({ requirements: 'PRF-JSON-1', level: 'PROFILE', role: 'payee', sections: 'PROFILE §1', seed: '42', path: '0:1' });
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
    const property = inside.find((t) => t.name === 'property' && attr(t, 'name') === 'warning');

    it(shown === 'warning' ? 'writes no <failure>, and a warning property naming the failed check' : 'writes a <failure>, and no warning property', () => {
      expect(inside.some((t) => t.name === 'failure')).toBe(shown === 'failed');
      expect(property === undefined).toBe(shown === 'failed');
      if (shown === 'warning') expect(attr(property, 'value')).toMatch(/^(CPR-ID-2 schema: request_id is not a UUIDv4|PRF-JSON-1 schema: a body starts with a BOM)$/);
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
        expect(body).toMatch(/^<system-out>warning, not a failure: a failure at a level that does not decide this run/);
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
