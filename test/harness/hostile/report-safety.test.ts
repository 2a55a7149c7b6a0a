// A target that answers with <script>, event handlers, ANSI escapes and control
// characters, everywhere it can (bodies, headers, problem details, test-control
// answers): its text reaches every report, and stays text. report.html is
// opened in a real browser (headless Chromium) to prove no injected script ran.
// The target is served over TLS with a certificate nobody trusts: verification is
// on unless --insecure says otherwise, and the report records that it was off.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTlsMaterial } from '../../../reference/tls.ts';
import { hostilePayloads, INJECTED_MARKER, startHostile, type HostileServer } from '../../fixtures/hostile/servers.ts';
import { scanMarkup } from '../report/markup.ts';
import { cliHere, report, TERMINAL_CONTROL, workDir, type CliResult } from './support.ts';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 90_000 });

const work = workDir('inject');
const dir = join(work, 'insecure');
let target: HostileServer;
let beacon: HostileServer;
let run: CliResult;

beforeAll(async () => {
  // Any request here means a payload ran in the browser (and got past the page's CSP).
  beacon = await startHostile('server-errors');
  target = await startHostile('injection', { tls: await createTlsMaterial(), beacon: beacon.url });
  run = await cliHere(['run', '--target', target.url, '--insecure', '--property-runs', '2', '--request-timeout', '5000', '--report-dir', dir]);
});

afterAll(async () => {
  await target?.close();
  await beacon?.close();
});

const read = (name: string) => readFileSync(join(dir, name), 'utf8');

describe('a run against a target that injects markup and control characters', () => {
  it('finishes and writes a valid report that holds the hostile text', () => {
    // Failures were observed (exit 1), beside harness errors for its garbled test control.
    expect(run.status).toBe(1);
    const out = report(dir);
    const json = JSON.stringify(out);
    // The payloads did reach the report: what follows proves they stay inert.
    expect(json).toContain('<script>document.title=');
    expect(json).toContain('onerror=');
    expect(json).toContain('\\u001b[2J');
    expect(out.tests.some((t) => t.status === 'failed')).toBe(true);
    expect(target.stats.requests).toBeGreaterThan(50);
  });

  it('shows the target\'s text on the terminal without a single control character', () => {
    expect(TERMINAL_CONTROL.test(run.stdout)).toBe(false);
    expect(TERMINAL_CONTROL.test(run.stderr)).toBe(false);
    // ESC from the target is shown, as visible text.
    expect(run.stdout).toContain('\\u001b[2J');
  });

  it('escapes all of it in report.html: one script (ours), no element or attribute from the data', () => {
    const html = read('report.html');
    const markup = scanMarkup(html, 'html');
    expect(markup.scripts).toHaveLength(1);
    expect(html.match(/<script/gi)).toHaveLength(1);
    const names = new Set(markup.tags.map((t) => t.name));
    for (const foreign of ['img', 'svg', 'iframe', 'object', 'embed', 'form', 'base', 'link']) expect(names.has(foreign)).toBe(false);
    for (const tag of markup.tags) for (const attribute of tag.attributes.keys()) expect(attribute.startsWith('on'), `${tag.name}[${attribute}]`).toBe(false);
    expect(html).toContain('&lt;script&gt;document.title=');
    expect(TERMINAL_CONTROL.test(html.replace(/\n/g, ''))).toBe(false);
  });

  it('escapes all of it in summary.md and junit.xml', () => {
    const md = read('summary.md');
    // Fenced code blocks show their content verbatim (the fence is longer than any backtick run in it);
    // everywhere else, nothing from the target is markup.
    const { prose } = splitFences(md);
    expect(md).toMatch(/onload=|onerror=/);
    // The only HTML is the project's own <details> around each failure's fences, in fixed words.
    expect(prose.replace(/^<details><summary>Expected and actual of (?:the failed check|the \d+ failed checks)<\/summary>$|^<\/details>$/gm, '')).not.toMatch(/<(script|img|svg|details|summary)/i);
    expect(prose).not.toMatch(/\]\(javascript/i);
    expect(prose).toContain('&lt;script&gt;');
    expect(TERMINAL_CONTROL.test(md)).toBe(false);
    const xml = read('junit.xml');
    scanMarkup(xml, 'xml');
    expect(xml).not.toMatch(/<script/i);
    expect(TERMINAL_CONTROL.test(xml)).toBe(false);
  });

  it('ran with TLS verification off only because --insecure said so, and the report records it', () => {
    expect(run.stdout).toMatch(/warning: TLS verification is off for this target \(--insecure\); the report records it/);
    const out = report(dir);
    expect(out.run.target.roles.payee?.tls).toBe('insecure');
    expect(out.run.target.roles.operator?.tls).toBe('insecure');
    expect(out.run.command).toContain('--insecure');
    expect(read('report.html')).toContain('<td class="insecure">insecure</td>');
  });

  it('verifies TLS by default: the same target without --insecure is untrusted, not unreachable (exit 2), and the report says verified', async () => {
    const verified = join(work, 'verified');
    const r = await cliHere(['run', '--target', target.url, '--no-properties', '--request-timeout', '2000', '--report-dir', verified]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/HARNESS_TLS_UNTRUSTED: .*(certificate|TLS|self.signed)/i);
    expect(r.stderr).toMatch(/hint: give the CA that issued the certificate: --ca FILE with --target URL, tls\.ca_file in a target file; or opt out .* --insecure or tls\.insecure: true/);
    const out = report(verified);
    expect(out.run.target.roles.payee?.tls).toBe('verified');
    expect(out.tests.filter((t) => t.status !== 'not-applicable').every((t) => t.error_code === 'HARNESS_TLS_UNTRUSTED')).toBe(true);
  });
});

/** Markdown outside and inside fenced code blocks. */
function splitFences(md: string): { prose: string; code: string } {
  const prose: string[] = [];
  const code: string[] = [];
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    if (fence === undefined) {
      const open = /^(`{3,})/.exec(line)?.[1];
      if (open) fence = open;
      else prose.push(line);
    } else if (line === fence) {
      fence = undefined;
    } else {
      code.push(line);
    }
  }
  expect(fence, 'every fence is closed').toBeUndefined();
  return { prose: prose.join('\n'), code: code.join('\n') };
}

// ---- In a real browser ---------------------------------------------------------

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const IN_CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
const missing = 'Chromium not found at /usr/bin/chromium: install Debian\'s chromium package (.ci/run does: apt-get install -y chromium)';
if (!CHROMIUM && !IN_CI) console.warn(`skipping the browser test of report.html: ${missing}`);

/** The DOM after the page's scripts ran, as headless Chromium serializes it. */
function dumpDom(file: string): string {
  const profile = mkdtempSync(join(tmpdir(), 'cpr-chromium-'));
  try {
    const r = spawnSync(
      CHROMIUM!,
      ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, '--virtual-time-budget=3000', '--dump-dom', pathToFileURL(file).href],
      { encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * 1024 * 1024 },
    );
    if (r.status !== 0 || !r.stdout.includes('</html>')) throw new Error(`chromium failed (${r.status ?? r.signal}): ${r.stderr.slice(-2000)}`);
    return r.stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

describe.skipIf(!CHROMIUM && !IN_CI)(`report.html in headless Chromium${CHROMIUM ? '' : ` (${missing})`}`, () => {
  it('runs its own filter script and none of the injected ones', () => {
    if (!CHROMIUM) throw new Error(`${missing}. In CI the browser test must run.`);
    const dom = dumpDom(join(dir, 'report.html'));
    // Our script ran: it un-hides the filter buttons it makes work.
    expect(dom).toMatch(/<div class="filters" id="filters" data-table="matrix" role="group" aria-label="Show requirements with status">/);
    expect(dom).toMatch(/<div class="filters" id="test-filters" data-table="test-table" role="group" aria-label="Show tests with outcome">/);
    // No payload ran: none added its marker, changed the title or called home.
    expect(dom).not.toContain(`id="${INJECTED_MARKER}"`);
    // The title is the page's own: the verdict word and the target, unchanged by any payload.
    const word = report(dir).verdict.toUpperCase();
    expect(['NON-CONFORMANT', 'ERROR']).toContain(word);
    expect(dom).toContain(`<title>cpr-conformance: ${word} (${new URL(target.url).host})</title>`);
    expect(dom).not.toMatch(/<(img|svg)\b/i);
    expect(dom.match(/<script/gi)).toHaveLength(1);
    expect(beacon.stats.requests).toBe(0);
    // ... while the hostile text is on the page, as text.
    expect(dom).toContain('&lt;script&gt;document.title=');
  });

  it('would have seen a payload run (the check can fail): the same payload unescaped, in a page without CSP', () => {
    if (!CHROMIUM) throw new Error(`${missing}. In CI the browser test must run.`);
    const file = join(work, 'unescaped.html');
    writeFileSync(file, `<!DOCTYPE html><html><head><title>control</title></head><body>${hostilePayloads('http://127.0.0.1:9').script}</body></html>`);
    const dom = dumpDom(file);
    expect(dom).toContain(`id="${INJECTED_MARKER}"`);
    expect(dom).toContain('<title>PWNED</title>');
  });
});
