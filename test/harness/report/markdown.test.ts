import { describe, expect, it } from 'vitest';
import { summaryMarkdown } from '../../../harness/report/markdown.ts';
import type { Report } from '../../../harness/report/model.ts';
import { stripControl } from '../../../harness/text.ts';
import { buildReport, fixtureTests, HOSTILE, HOSTILE_BODY, WARNING_CASES } from './fixture.ts';

interface Fence {
  readonly info: string;
  readonly content: string;
}

/** Splits Markdown into fenced code blocks and the prose around them, closing fences as CommonMark does. */
function parse(md: string): { prose: string[]; fences: Fence[] } {
  const prose: string[] = [];
  const fences: Fence[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})([^`]*)$/.exec(lines[i] ?? '');
    if (open === null) {
      prose.push(lines[i] ?? '');
      continue;
    }
    const length = open[1]?.length ?? 3;
    const body: string[] = [];
    for (i++; i < lines.length && !new RegExp(`^\`{${length},}\\s*$`).test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    fences.push({ info: open[2] ?? '', content: body.join('\n') });
  }
  return { prose, fences };
}

/** A GFM table row's cells: a pipe splits unless backslash-escaped. */
function cells(line: string): string[] {
  const out = [''];
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (c === '\\') out[out.length - 1] += c + (line[++i] ?? '');
    else if (c === '|') out.push('');
    else out[out.length - 1] += c;
  }
  return out.slice(1, -1);
}

/** Characters not preceded by an escaping backslash. */
function unescaped(text: string, char: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === char) count++;
  }
  return count;
}

function hostileReport(): Report {
  const report = buildReport();
  const hostile = Object.values(HOSTILE).join(' ');
  return {
    ...report,
    requirements: report.requirements.map((r) => (r.status === 'failed' || r.status === 'warning' ? { ...r, summary: `${hostile}\nsecond | line` } : r)),
    errors: [{ code: 'HARNESS_TARGET_UNREACHABLE', message: hostile }],
    run: { ...report.run, shard: '1/2' },
  };
}

/** The only HTML summary.md writes itself: fixed words, never data. */
const OWN_DETAILS = /^<details><summary>Expected and actual of (?:the failed check|the \d+ failed checks)<\/summary>$|^<\/details>$/gm;

describe('summaryMarkdown', () => {
  const md = summaryMarkdown(hostileReport());
  const { prose, fences } = parse(md);

  it('starts with the verdict as a word, without emoji', () => {
    expect(md.split('\n')[0]).toBe('## cpr-conformance: NON-CONFORMANT');
    expect(summaryMarkdown(buildReport({ tests: fixtureTests().slice(0, 2) }))).toMatch(/^\*\*Verdict: NON-CONFORMANT\*\*/m);
    expect(summaryMarkdown(buildReport({ tests: fixtureTests().slice(0, 1) }))).toMatch(/^\*\*Verdict: INCOMPLETE\*\*/m);
    expect(summaryMarkdown(buildReport({ tests: fixtureTests().filter((t) => t.status === 'passed' || t.status === 'error') }))).toMatch(/^\*\*Verdict: ERROR\*\*/m);
    expect(md).not.toMatch(/\p{Extended_Pictographic}/u);
  });

  it.each([
    ['Profile version', 'CPP-PROFILE-1.0'],
    ['Duration', '4.3 s'],
    ['Seed', '42'],
    ['Shard', '1/2'],
  ])('gives the run fact %s', (name, value) => {
    expect(prose).toContain(`| ${name} | ${value} |`);
  });

  it('counts tests by outcome and requirements by status', () => {
    const at = prose.indexOf('| Total | Passed | Failed | Warning | Skipped | Not applicable | Error |');
    expect(prose[at + 2]).toBe('| 8 | 3 | 1 | 1 | 1 | 1 | 1 |');
    expect(prose).toContain('| Passed | Failed | Warning | Not applicable | Skipped | Error | Not reached | Not run | Uncovered |');
  });

  it('lists failed requirements with level, section, summary and failing tests', () => {
    const row = prose.find((l) => l.startsWith('| CPR-ID-1 |'));
    expect(cells(row ?? '').map((c) => c.trim()).filter((_, i) => i !== 3)).toEqual(['CPR-ID-1', 'MUST', '§2.1, §4.7.3, §4.8', 'CPR-ID-001']);
    expect(prose.find((l) => l.startsWith('| CPR-ID-2 |'))).toContain('| SHOULD | §2.1 |');
  });

  it('keeps every table row to its column count however hostile the cell', () => {
    const tables = prose.filter((l) => l.startsWith('|'));
    let columns = 0;
    for (const line of tables) {
      if (/^\|[-:|]+\|$/.test(line)) continue;
      const n = cells(line).length;
      if (line.startsWith('| ID |') || line.startsWith('| Run |') || line.startsWith('| Total |') || line.startsWith('| Passed |')) columns = n;
      expect(n, line).toBe(columns);
      expect(line.includes('\n')).toBe(false);
    }
    expect(tables.some((l) => l.includes('\\[click me\\](javascript:alert(1))'))).toBe(true);
  });

  it('lets no data make HTML, links, emphasis or code outside fences', () => {
    // The only HTML is the project's own: a <details> block of fixed words around each failure's fences.
    const text = prose.join('\n').replace(OWN_DETAILS, '');
    expect(text).not.toContain('<');
    expect(unescaped(text, '[')).toBe(0);
    expect(unescaped(text, '`')).toBe(0);
    expect(unescaped(text, '_')).toBe(0);
    expect(text).not.toMatch(/(?<!\\)\]\(javascript:/);
    // No bare URL, www. name, email address or emoji shortcode is recognised.
    expect(text).toContain('https\\://evil.example/x www\\.evil.example pay\\@evil.example \\:smile: \\:100:');
    expect(text).not.toMatch(/(?<!\\)(https?:\/\/|www\.|@evil)/);
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    // Our own emphasis is the only one: ** pairs around fixed words.
    expect(text.match(/(?<!\\)\*/g)?.length).toBe(8);
  });

  it('shows no control characters: ANSI escapes and bidi overrides become visible text', () => {
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(md).toContain('\\u001b[31mRED\\u001b[0m');
    expect(md).toContain('\\u202eevil bidi override');
  });

  it('fences a body containing backtick runs so that it comes through whole', () => {
    const expected = stripControl(HOSTILE_BODY.replace(/\r\n/g, '\n'));
    const block = fences.find((f) => f.content === expected);
    expect(block?.info).toBe('text');
    expect(md).toContain('`````text\n```\n');
  });

  it.each([
    ['CPR-ID-001', 'failed'],
    ['CPR-ID-002', 'warning (not a failure: it does not decide the verdict)'],
    ['TOK-ONCE-001', 'harness error'],
  ])('details %s (%s) with the command that reruns it alone', (id, outcome) => {
    const heading = prose.findIndex((l) => l.startsWith(`#### Test ${id}:`));
    expect(prose[heading + 2]?.startsWith(`Outcome ${outcome};`)).toBe(true);
    expect(fences).toContainEqual({ info: 'sh', content: `npx cpr-conformance run --only ${id} --seed 42` });
  });

  it("puts each failure's checks in a <details> block, with what the target answered visible above it", () => {
    const heading = prose.findIndex((l) => l.startsWith('#### Test CPR-ID-001:'));
    const section = prose.slice(heading, prose.findIndex((l, i) => i > heading && l.startsWith('#### ')));
    expect(section).toContain('- Check problem for CPR-ID-1 (MUST), step 2: problem code is &lt;img src=x onerror=alert(1)&gt;');
    expect(section.find((l) => l.startsWith('- The target answered at step 2: POST /v1/cpr answered 400, body'))).toBeDefined();
    const open = section.indexOf('<details><summary>Expected and actual of the failed check</summary>');
    expect(open).toBeGreaterThan(section.findIndex((l) => l.startsWith('- The target answered')));
    expect(section[open + 1]).toBe('');
    expect(section.indexOf('</details>')).toBeGreaterThan(open);
  });

  it('says once per role the target does not have that its tests do not apply, and lists the other inapplicable tests', () => {
    const base = fixtureTests()[4]!;
    const missing = ['PROP-APP-001', 'PROP-APP-002', 'TOK-TLS-003'].map((id, i) => ({ ...base, id, role: 'paying-app' as const, reason: i === 2 ? 'step 3: the target has no paying-app role' : 'the target has no paying-app role' }));
    const out = summaryMarkdown(buildReport({ tests: [...fixtureTests(), ...missing] }));
    const section = out.slice(out.indexOf('### Not applicable'));
    expect(section.split('\n').filter((l) => l.startsWith('- '))).toEqual(['- Every paying-app test (3): the target has no paying-app role.', '- TOK-TLS-001 (basis spec): the target is in-process: no transport']);
  });

  it('lists the passed tests that left parts out, and what, and no section when none did', () => {
    const passed = fixtureTests().find((t) => t.status === 'passed')!;
    const out = summaryMarkdown(buildReport({ tests: [...fixtureTests(), { ...passed, id: 'PROP-OP-014', left_out: ['redeem-request, as the redeem-request is over max_body_bytes (1536)'] }] }));
    const section = out.slice(out.indexOf('### Passed with parts left out'));
    expect(section.split('\n').filter((l) => l.startsWith('- '))).toEqual(['- PROP-OP-014: redeem-request, as the redeem-request is over max\\_body\\_bytes (1536)']);
    expect(summaryMarkdown(buildReport({ tests: fixtureTests() }))).not.toContain('### Passed with parts left out');
  });

  it('gives expected and actual of each failed check as fenced blocks', () => {
    expect(fences).toContainEqual({ info: 'text', content: '{\n  "status": 400,\n  "code": "INVALID_REQUEST"\n}' });
    expect(fences.some((f) => f.content.includes('"title": "<script>alert(1)</script>"'))).toBe(true);
  });

  it('names harness errors by code', () => {
    expect(prose).toContain('### Harness errors');
    expect(prose.some((l) => l.startsWith('- Code HARNESS\\_TARGET\\_UNREACHABLE: &lt;script&gt;'))).toBe(true);
  });

  it('leaves plain colons plain: the coverage line, times, host:port', () => {
    const out = summaryMarkdown(buildReport());
    expect(out).toMatch(/\*\*Coverage\*\*: \d+ of \d+ deciding requirements \([a-z, _]+\) exercised: \d+ passed/);
    expect(out).toMatch(/\| Started \| \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(out).not.toContain('\\:');
  });

  it('says near the top what capability discovery noticed', () => {
    const report = buildReport();
    const note = 'GET /_control/capabilities answered 500; treated as no test-control capabilities';
    const roles = { payee: { adapter: 'http', tls: 'verified' as const, capabilities: [], capabilities_note: note }, operator: { adapter: 'http', tls: 'verified' as const, capabilities: [], capabilities_note: note } };
    const out = summaryMarkdown({ ...report, run: { ...report.run, target: { ...report.run.target, roles } } });
    const line = `**Target**: payee and operator: ${note.replace('_', '\\_')}.`;
    expect(out).toContain(line);
    expect(out.indexOf(line)).toBeLessThan(out.indexOf('| Run |'));
  });

  it('says the embedded reference once', () => {
    const report = buildReport();
    const out = summaryMarkdown({ ...report, run: { ...report.run, target: { ...report.run.target, name: 'embedded reference', embedded: true } } });
    expect(out).toContain('| Target | embedded reference |');
  });

  it('groups tests that errored alike into one line, and details the rest', () => {
    const [base] = fixtureTests().filter((t) => t.status === 'error');
    const alike = Array.from({ length: 40 }, (_, i) => ({ ...base!, id: `X-${String(i).padStart(3, '0')}`, checks: [], error_code: 'HARNESS_TARGET_UNREACHABLE' as const, not_run: true as const, reason: 'nothing answered' }));
    const report = buildReport({ tests: [...fixtureTests(), ...alike] });
    const out = summaryMarkdown({ ...report, errors: [{ code: 'HARNESS_TARGET_UNREACHABLE', message: 'nothing answered' }] });
    const lines = out.split('\n');
    expect(lines.filter((l) => l.startsWith('- 40 tests, harness error HARNESS\\_TARGET\\_UNREACHABLE (not a conformance result): not run: nothing answered. Tests: X-000, X-001'))).toHaveLength(1);
    expect(out).toContain('and 28 more.');
    expect(lines.some((l) => l.startsWith('#### Test X-'))).toBe(false);
    expect(lines.some((l) => l.startsWith('#### Test CPR-ID-001:'))).toBe(true);
  });

  it('cuts very long blocks and says where the full text is', () => {
    const tests = [{ ...fixtureTests()[2]!, checks: [{ ...fixtureTests()[2]!.checks[0]!, actual: 'word '.repeat(2_000) }] }];
    const out = summaryMarkdown(buildReport({ tests }));
    expect(out).toContain('[... cut at 4000 characters; see report.json]');
    const warned = out.slice(out.indexOf('### Tests with warnings'));
    expect(warned.length).toBeLessThan(5000);
    expect(warned).toContain('[... cut at 4000 characters; see report.json]');
  });

  /** The headed section of the summary (to the next heading of its level), or nothing. */
  const section = (out: string, heading: string) => {
    const start = out.indexOf(`\n${heading}\n`);
    if (start < 0) return '';
    const rest = out.slice(start + heading.length + 2);
    const end = rest.search(/\n### /);
    return end < 0 ? rest : rest.slice(0, end);
  };

  it.each(WARNING_CASES)('counts and details %s (%s) as a %s', (_name, id, shown, options) => {
    const report = buildReport(options);
    const out = summaryMarkdown(report);
    const lines = out.split('\n');
    const s = report.summary;
    expect(lines[lines.indexOf('| Total | Passed | Failed | Warning | Skipped | Not applicable | Error |') + 2]).toBe(`| ${[s.total, s.passed, s.failed, s.warned, s.skipped, s.not_applicable, s.error].join(' | ')} |`);
    expect(report.tests.find((t) => t.id === id)!.warning).toBe(shown === 'warning' ? true : undefined);
    const [inside, outside] = shown === 'warning' ? ['### Tests with warnings', '### Failed tests'] : ['### Failed tests', '### Tests with warnings'];
    expect(section(out, inside)).toContain(`#### Test ${id}:`);
    expect(section(out, outside)).not.toContain(`#### Test ${id}:`);
    const requirement = report.tests.find((t) => t.id === id)!.requirements[0]!;
    expect(section(out, shown === 'warning' ? '### Requirements with warnings' : '### Failed requirements')).toContain(`| ${requirement} |`);
  });
});
