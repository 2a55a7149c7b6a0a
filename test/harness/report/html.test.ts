import { describe, expect, it } from 'vitest';
import { reportHtml } from '../../../harness/report/html.ts';
import type { Report, RequirementResult, RequirementStatus } from '../../../harness/report/model.ts';
import { findRequirement } from '../../../profile/registry.ts';
import { buildReport, fixtureTests, HOSTILE, WARNING_CASES } from './fixture.ts';
import { SHOWN_OUTCOMES, shownOutcome } from '../../../harness/report/wording.ts';
import { decodeEntities, scanMarkup, type Tag } from './markup.ts';

const STATUSES: readonly RequirementStatus[] = ['passed', 'failed', 'warning', 'skipped', 'not-applicable', 'uncovered'];

/** The fixture, with hostile text also in places we write ourselves (IDs, titles, harness errors). */
function hostileReport(): Report {
  const report = buildReport();
  const evilId = `EVIL-1"><img src=x onerror=alert(1)>`;
  const tests = report.tests.map((t) => (t.id === 'CPR-ID-001' ? { ...t, id: evilId, title: `${HOSTILE.textarea} ${HOSTILE.link}` } : t));
  return {
    ...report,
    tests,
    requirements: report.requirements.map((r) => (r.id === 'CPR-ID-1' ? { ...r, tests: [evilId] } : r)),
    errors: [{ code: HOSTILE.svg as never, message: HOSTILE.pre }], // codes are the harness's own; escaped all the same
  };
}

const html = reportHtml(hostileReport());
const markup = scanMarkup(html, 'html');
const text = markup.texts.join('');
const opening = (name: string) => markup.tags.filter((t) => t.name === name && !t.closing);
const attrOf = (tag: Tag | undefined, name: string) => tag?.attributes.get(name);

describe('reportHtml', () => {
  it('is one well-formed HTML5 document: doctype, balanced tags, unique IDs, every link resolves', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    const ids = markup.tags.flatMap((t) => (t.closing || !t.attributes.has('id') ? [] : [t.attributes.get('id')]));
    expect(new Set(ids).size).toBe(ids.length);
    const hrefs = opening('a').map((a) => attrOf(a, 'href') ?? '');
    expect(hrefs.length).toBeGreaterThan(10);
    for (const href of hrefs) expect(ids, href).toContain(href.slice(1));
    expect(opening('meta')[0]?.attributes.get('charset')).toBe('utf-8');
  });

  it('loads nothing from outside and allows only its own nonce-bearing script', () => {
    const csp = opening('meta').find((m) => attrOf(m, 'http-equiv') === 'Content-Security-Policy');
    const policy = decodeEntities(attrOf(csp, 'content') ?? '');
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]{16,})'$/.exec(policy)?.[1];
    expect(policy.startsWith("default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-")).toBe(true);
    expect(opening('script')).toHaveLength(1);
    expect(attrOf(opening('script')[0], 'nonce')).toBe(nonce);
    expect(html.match(/<script/gi)).toHaveLength(1);
    for (const name of ['link', 'img', 'iframe', 'object', 'embed', 'base', 'form', 'svg']) expect(opening(name), name).toHaveLength(0);
  });

  it('uses a fresh nonce for each file', () => {
    const nonce = (h: string) => /nonce="([^"]+)"/.exec(h)?.[1];
    expect(nonce(reportHtml(buildReport()))).not.toBe(nonce(reportHtml(buildReport())));
  });

  it('never puts data in href, src, style or event-handler attributes', () => {
    for (const tag of markup.tags) {
      for (const [name, value] of tag.attributes) {
        expect(name, `<${tag.name} ${name}>`).not.toMatch(/^(on|src$|style$|srcdoc$|formaction$)/i);
        if (name === 'href') expect(value).toMatch(/^#[A-Za-z0-9_.-]+$/);
        if (name === 'id') expect(value).toMatch(/^[A-Za-z0-9_.-]+$/);
        expect(decodeEntities(value).toLowerCase(), `${tag.name}[${name}]`).not.toContain('javascript:');
      }
    }
  });

  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['"><svg onload=alert(1)>', '&quot;&gt;&lt;svg onload=alert(1)&gt;'],
    ['</pre><script>', '&lt;/pre&gt;&lt;script&gt;'],
    ['</textarea>', '&lt;/textarea&gt;'],
    ['javascript:alert(1) as a body', 'javascript:alert(1)'],
    ['[link](javascript:...)', '[click me](javascript:alert(1))'],
    ['an ANSI escape', '\\u001b[31mRED\\u001b[0m'],
    ['a bidi override', '\\u202eevil bidi override'],
  ])('shows %s only as escaped text', (_name, escaped) => {
    expect(text).toContain(escaped);
  });

  it('has no event handler, script or markup from data outside escaped text', () => {
    const tagText = markup.tags.map((t) => [t.name, ...t.attributes.keys()].join(' ')).join('\n');
    expect(tagText).not.toMatch(/onerror|onload|svg|img|textarea/i);
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(html.isWellFormed()).toBe(true);
  });

  it('gives a test with an unsafe ID a sanitized anchor that its links use', () => {
    const article = opening('article').map((a) => attrOf(a, 'id') ?? '');
    const evil = article.find((id) => id.startsWith('f_x'));
    expect(evil).toMatch(/^f_x[0-9a-f]+$/);
    expect(Buffer.from(evil?.slice(3) ?? '', 'hex').toString('utf8')).toBe(`EVIL-1"><img src=x onerror=alert(1)>`);
    expect(opening('a').some((a) => attrOf(a, 'href') === `#${evil}`)).toBe(true);
  });

  it('shows the verdict in a banner and the run facts', () => {
    const banner = opening('header')[0];
    expect(attrOf(banner, 'class')).toBe('banner v-non-conformant');
    expect(html).toContain('<h1>NON-CONFORMANT</h1>');
    expect(reportHtml(buildReport({ tests: fixtureTests().filter((t) => t.status === 'passed' || t.status === 'error') }))).toContain('<header class="banner v-error"><h1>ERROR</h1>');
    expect(reportHtml(buildReport({ tests: fixtureTests().slice(0, 1) }))).toContain('<header class="banner v-incomplete"><h1>INCOMPLETE</h1>');
    for (const fact of ['CPP-PROFILE-1.0', '0.1.0', '42', 'v20.11.1', 'cpr-conformance run --target target.yaml --seed 42']) expect(text).toContain(fact);
    expect(html).toContain('<td class="insecure">insecure</td>');
  });

  it('lays the requirement matrix out by first spec section, in numeric order, PROFILE sections after', () => {
    const headings = [...html.matchAll(/<tr class="section"><th colspan="6" scope="colgroup">([^<]*)<\/th>/g)].map((m) => m[1] ?? '');
    expect(headings.indexOf('§2.1')).toBeLessThan(headings.indexOf('§4.5'));
    expect(headings.indexOf('§4.5')).toBeLessThan(headings.indexOf('§4.5.1'));
    expect(headings.indexOf('§4.6.4')).toBeLessThan(headings.indexOf('§4.7.1'));
    expect(headings.indexOf('PROFILE §2.1')).toBeLessThan(headings.indexOf('PROFILE §10'));
    expect(headings.indexOf('§7.1')).toBeLessThan(headings.indexOf('PROFILE §1'));
    const numbers = (h: string) => (h.replace(/^PROFILE /, '9999.').replace('§', '')).split('.').map(Number);
    const sorted = [...headings].sort((a, b) => {
      const [x, y] = [numbers(a), numbers(b)];
      for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1);
      return 0;
    });
    expect(headings).toEqual(sorted);
    expect(opening('tr').filter((t) => t.attributes.has('data-status') && attrOf(t, 'id')?.startsWith('r'))).toHaveLength(buildReport().requirements.length);
  });

  it.each<[string[], string[]]>([
    [['§10', '§2.1', '§1.2'], ['§1.2', '§2.1', '§10']],
    [['PROFILE §10', '§9', 'PROFILE §2'], ['§9', 'PROFILE §2', 'PROFILE §10']],
    [['§4.10', '§4.9', '§4'], ['§4', '§4.9', '§4.10']],
  ])('orders sections %j as %j', (sections, order) => {
    const base = buildReport({ tests: [] });
    const requirements: RequirementResult[] = sections.map((s, i) => ({ ...base.requirements[0]!, id: `X-${i}`, sections: [s] }));
    const out = reportHtml({ ...base, requirements });
    expect([...out.matchAll(/scope="colgroup">([^<]*)</g)].map((m) => m[1])).toEqual(order);
  });

  it('gives each row ID, level, roles, summary, coloured status and links to its tests', () => {
    const row = html.split('\n').find((l) => l.startsWith('<tr id="r-TOK-RACE-1"'));
    const summary = findRequirement('TOK-RACE-1')?.summary ?? '';
    expect(row).toBe(
      `<tr id="r-TOK-RACE-1" data-status="passed"><td class="id">TOK-RACE-1</td><td>MUST</td><td>payee</td><td>${summary}</td><td><span class="badge s-passed">passed</span></td><td><a href="#t-TOK-RACE-001">TOK-RACE-001</a></td></tr>`,
    );
  });

  it('puts the failures right after the summary, before the matrix, and links the failed and error counts to them', () => {
    const order = ['id="summary"', 'id="failures"', 'id="requirements"', 'id="tests"'].map((id) => html.indexOf(id));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const summary = html.slice(html.indexOf('id="summary"'), html.indexOf('</section>', html.indexOf('id="summary"')));
    expect(summary).toMatch(/<a href="#failures"><span class="n">\d+<\/span><span class="l">failed<\/span><\/a>/);
    expect(summary).toMatch(/<a href="#failures"><span class="n">\d+<\/span><span class="l">error<\/span><\/a>/);
    // Nothing failed: no link to a section that is not there.
    expect(reportHtml(buildReport({ tests: fixtureTests().filter((t) => t.status === 'passed') }))).not.toContain('href="#failures"');
  });

  it('shows one entry for tests that errored alike, and what capability discovery noticed, at the top', () => {
    const report = buildReport();
    const [base] = fixtureTests().filter((t) => t.status === 'error');
    const alike = Array.from({ length: 5 }, (_, i) => ({ ...base!, id: `X-00${i}`, checks: [], not_run: true as const, reason: 'nothing answered' }));
    const roles = { payee: { adapter: 'http', tls: 'verified' as const, capabilities: [], capabilities_note: 'GET /_control/capabilities answered 500; treated as no test-control capabilities' } };
    const page = reportHtml({ ...report, tests: [...report.tests, ...alike], run: { ...report.run, target: { ...report.run.target, roles } } });
    expect(page.match(/5 tests: harness error/g)).toHaveLength(1);
    // Not run is a field; the page says it in words.
    expect(page).toContain('<p class="reason">not run: nothing answered</p>');
    for (let i = 0; i < 5; i++) expect(page).toContain(`<li id="f-X-00${i}">`);
    const banner = page.slice(0, page.indexOf('</header>'));
    expect(banner).toContain('<p class="target-note">Target: payee: GET /_control/capabilities answered 500; treated as no test-control capabilities.</p>');
  });

  it('links a failing test from the matrix to its failure details', () => {
    const row = html.split('\n').find((l) => l.startsWith('<tr id="r-CPR-ID-2"'));
    expect(row).toContain('<span class="badge s-warning">warning</span></td><td><a href="#f-CPR-ID-002" class="warn">CPR-ID-002</a></td>');
    expect(html.split('\n').find((l) => l.startsWith('<tr id="r-CPR-ID-1"'))).toContain('class="bad">');
  });

  it.each(['all', ...STATUSES])('has a filter button for %s', (status) => {
    const button = opening('button').find((b) => attrOf(b, 'data-filter') === status);
    expect(attrOf(button, 'type')).toBe('button');
  });

  it.each(SHOWN_OUTCOMES)('filters the list of tests to %s with the inline script', (outcome) => {
    const dom = fakeDom(html, 'test-table');
    expect(dom.bar.hidden).toBe(false);
    dom.click(outcome);
    const visible = dom.rows().filter((r) => !r.hidden);
    const expected = hostileReport().tests.filter((t) => shownOutcome(t) === outcome).length;
    expect(visible).toHaveLength(expected);
    expect(visible.every((r) => r.getAttribute('data-status') === outcome)).toBe(true);
    expect(dom.empty.hidden).toBe(expected !== 0);
    dom.click('all');
    expect(dom.rows().every((r) => !r.hidden)).toBe(true);
  });

  describe.each(WARNING_CASES)('for %s (%s), shown as a %s', (_name, id, shown, options) => {
    const report = buildReport(options);
    const page = reportHtml(report);
    const sectionOf = (sectionId: string) => {
      const at = page.indexOf(`<section id="${sectionId}">`);
      return at < 0 ? '' : page.slice(at, page.indexOf('</section>', at));
    };

    it(`details it under ${shown === 'warning' ? 'Tests with warnings' : 'Failed tests'} with a ${shown} badge, and not under the other`, () => {
      const [inside, outside] = shown === 'warning' ? ['warnings', 'failures'] : ['failures', 'warnings'];
      expect(sectionOf(inside)).toContain(`<article class="failure${shown === 'warning' ? ' warning' : ''}" id="f-${id}">\n<h3><span class="badge s-${shown}">${shown}</span>`);
      expect(sectionOf(outside)).not.toContain(`id="f-${id}"`);
    });

    it('gives it that outcome in the list of tests, and counts it there in the summary', () => {
      expect(page).toContain(`<tr id="t-${id}" data-status="${shown}">`);
      const summary = sectionOf('summary');
      expect(summary).toContain(`<span class="n">${report.summary.failed}</span><span class="l">failed</span>`);
      expect(summary).toContain(`<span class="n">${report.summary.warned}</span><span class="l">warning</span>`);
      expect(summary.includes('href="#warnings"')).toBe(report.summary.warned > 0);
    });
  });

  it.each(STATUSES)('filters the matrix to %s with the inline script', (status) => {
    const dom = fakeDom(html);
    dom.click(status);
    const visible = dom.rows().filter((r) => !r.hidden);
    const expected = hostileReport().requirements.filter((r) => r.status === status).length;
    expect(visible).toHaveLength(expected);
    expect(visible.every((r) => r.getAttribute('data-status') === status)).toBe(true);
    for (const group of dom.groups) expect(group.hidden).toBe(group.rows.every((r) => r.hidden));
    expect(dom.buttons.filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => b.getAttribute('data-filter'))).toEqual([status]);
    expect(dom.empty.hidden).toBe(expected !== 0);
    dom.click('all');
    expect(dom.rows().every((r) => !r.hidden)).toBe(true);
  });

  it('details each failed or errored test: checks, expected vs actual, transcript, rerun command', () => {
    const articles = opening('article').map((a) => attrOf(a, 'id'));
    expect(articles).toHaveLength(3);
    expect(articles).toContain('f-CPR-ID-002');
    expect(articles).toContain('f-TOK-ONCE-001');
    expect(html).toContain('<h4>Expected</h4><pre>\n{\n  &quot;status&quot;: 400,\n  &quot;code&quot;: &quot;INVALID_REQUEST&quot;\n}</pre>');
    expect(html).toContain('<h4>Actual</h4><pre>\n```\n&lt;script&gt;');
    expect(html).toContain('<p class="line">step 1 · payee · <code>POST http://127.0.0.1:8080/v1/cpr</code></p>');
    expect(html).toContain('<p class="line">response <strong>400</strong> · 7 ms</p>');
    expect(html).toContain('x-evil: &quot;&gt;&lt;svg onload=alert(1)&gt;');
    expect(html).toContain('[body truncated]');
    expect(html).toContain('transport error after 3 ms: ECONNRESET \\u001b[31mRED\\u001b[0m');
    expect(html).toContain('<pre class="rerun">\nnpx cpr-conformance run --only TOK-ONCE-001 --seed 42</pre>');
  });

  it('cuts a base64 blob (a QR PNG) in a transcript to a few characters, so the values beside it stay in view', () => {
    const png = Buffer.alloc(2400, 7).toString('base64');
    const [test] = fixtureTests().filter((t) => t.status === 'failed');
    const body = JSON.stringify({ token: 'tok-visible', qr_png: png });
    const withBlob = { ...test!, transcript: [{ step: '1', role: 'payee' as const, request: { method: 'GET', url: 'https://p.test/cpr/x', headers: {} }, response: { status: 200, headers: {}, body }, duration_ms: 1 }] };
    const page = reportHtml(buildReport({ tests: [withBlob] }));
    expect(page).toContain('tok-visible');
    expect(page).not.toContain(png);
    expect(page).toContain(`${png.slice(0, 48)}…[${png.length - 48} more base64 characters; in full in report.json]`);
  });

  it('keeps a body that starts with a blank line intact (one newline after <pre> is eaten by parsers)', () => {
    const tests = [{ ...fixtureTests()[2]!, checks: [{ ...fixtureTests()[2]!.checks[0]!, actual: '\nleading blank line' }] }];
    expect(reportHtml(buildReport({ tests }))).toContain('<h4>Actual</h4><pre>\n\nleading blank line</pre>');
  });
});

interface FakeElement {
  hidden: boolean;
  rows: FakeElement[];
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  addEventListener(type: string, listener: () => void): void;
  querySelectorAll(selector: string): FakeElement[];
  listeners: Map<string, () => void>;
}

function element(attributes: ReadonlyMap<string, string>, children: Record<string, FakeElement[]> = {}): FakeElement {
  const attrs = new Map([...attributes].map(([k, v]) => [k, decodeEntities(v)]));
  const self: FakeElement = {
    hidden: attrs.has('hidden'),
    rows: [],
    listeners: new Map(),
    getAttribute: (name) => attrs.get(name) ?? null,
    setAttribute: (name, value) => void attrs.set(name, value),
    addEventListener: (type, listener) => void self.listeners.set(type, listener),
    querySelectorAll: (selector) => {
      if (selector === 'tr[data-status]') return self.rows;
      const found = children[selector];
      if (found === undefined) throw new Error(`unexpected selector ${selector}`);
      return found;
    },
  };
  return self;
}

/** One filter bar and the table it filters, as our inline script sees them. */
interface FakeTable {
  readonly bar: FakeElement;
  readonly buttons: FakeElement[];
  readonly groups: FakeElement[];
  empty?: FakeElement;
}

/** Just enough DOM, built from the markup, to run our inline script and click its buttons (of the bar that filters `tableId`). */
function fakeDom(source: string, tableId = 'matrix') {
  const { tags, scripts } = scanMarkup(source, 'html');
  const tables = new Map<string, FakeTable>();
  const byId = new Map<string, FakeElement>();
  let bar: FakeTable | undefined;
  let table: FakeTable | undefined;
  for (const tag of tags) {
    if (tag.name === 'table') table = tag.closing ? undefined : tables.get(tag.attributes.get('id') ?? '');
    if (tag.name === 'div' && tag.closing) bar = undefined;
    if (tag.closing) continue;
    const id = tag.attributes.get('id');
    if (tag.name === 'div' && tag.attributes.has('data-table')) {
      const buttons: FakeElement[] = [];
      bar = { bar: element(tag.attributes, { 'button[data-filter]': buttons }), buttons, groups: [] };
      tables.set(decodeEntities(tag.attributes.get('data-table') ?? ''), bar);
    }
    if (tag.name === 'button' && tag.attributes.has('data-filter')) bar?.buttons.push(element(tag.attributes));
    if (tag.name === 'tbody') table?.groups.push(element(tag.attributes));
    if (tag.name === 'tr' && tag.attributes.has('data-status')) table?.groups.at(-1)?.rows.push(element(tag.attributes));
    if (id?.endsWith('-empty')) {
      const empty = element(tag.attributes);
      byId.set(id, empty);
      const owner = tables.get(id.slice(0, -'-empty'.length));
      if (owner !== undefined) owner.empty = empty;
    }
  }
  const document = {
    querySelectorAll: (selector: string) => {
      if (selector === '.filters[data-table]') return [...tables.values()].map((t) => t.bar);
      const group = /^#([A-Za-z-]+) tbody$/.exec(selector);
      if (group !== null && tables.has(group[1]!)) return tables.get(group[1]!)!.groups;
      throw new Error(`unexpected selector ${selector}`);
    },
    getElementById: (id: string) => byId.get(id) ?? null,
  };
  new Function('document', scripts[0] ?? '')(document);
  const chosen = tables.get(tableId);
  if (chosen?.empty === undefined) throw new Error(`no filter bar, table and #${tableId}-empty`);
  return {
    bar: chosen.bar,
    buttons: chosen.buttons,
    groups: chosen.groups,
    empty: chosen.empty,
    rows: () => chosen.groups.flatMap((g) => g.rows),
    click: (filter: string) => chosen.buttons.find((b) => b.getAttribute('data-filter') === filter)?.listeners.get('click')?.(),
  };
}

describe('reportHtml: what the target answered', () => {
  it('shows beside each failed check the answer at its step, escaped', () => {
    const page = reportHtml(buildReport());
    const article = page.slice(page.indexOf('<article class="failure" id="f-CPR-ID-001">'));
    expect(article.slice(0, article.indexOf('</article>'))).toContain('<p class="answer">The target answered: <code>POST /v1/cpr answered 400, body ``` &lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('reportHtml: no absolute local paths', () => {
  it('shows the command, baseline, files and rerun commands without the folders of the machine that ran them', () => {
    const report = buildReport();
    const local = {
      ...report,
      run: { ...report.run, command: ['cpr-conformance', 'run', '--report-dir', '/home/runner/work/acme/out', '--target=/home/runner/work/acme/target.yaml'], baseline: '/home/runner/work/acme/known.yaml' },
      tests: report.tests.map((t) => ({ ...t, rerun: `${t.rerun} --scenario '/tmp/fuzz-1/regression-42.yaml' --target https://127.0.0.1:8443/base/path` })),
    };
    const page = reportHtml(local);
    expect(page).not.toMatch(/\/home\/runner|\/tmp\/fuzz-1/);
    expect(page).toContain('--report-dir …/out --target=…/target.yaml');
    expect(page).toContain('--scenario &#39;…/regression-42.yaml&#39; --target https://127.0.0.1:8443/base/path');
  });
});
