// A --target that is neither http(s) nor a file, but reads as a URL, is a usage
// error saying which (another scheme, or host:port without one), before any
// target file is looked for: generated over hosts, ports, paths and schemes.
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refuseUrlLike } from '../../../harness/cli/target-options.ts';
import { HarnessError } from '../../../harness/errors.ts';

const host = fc.oneof(
  fc.domain(),
  fc.ipV4(),
  fc.ipV6().map((ip) => `[${ip}]`),
  fc.constantFrom('localhost', 'LOCALHOST', 'my-server'),
);
const port = fc.integer({ min: 0, max: 65_535 });
const path = fc.oneof(fc.constant(''), fc.webPath().filter((p) => p.startsWith('/') && !/\s/.test(p)));

function refusal(target: string): HarnessError | undefined {
  try {
    refuseUrlLike(target);
    return undefined;
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
}

describe('a --target that reads as a URL but is none the harness takes', () => {
  it('host:port[/path] without a scheme: a usage error that offers the https URL', () => {
    fc.assert(
      fc.property(host, port, path, (h, p, rest) => {
        const target = `${h}:${p}${rest}`;
        const error = refusal(target);
        expect(error?.code).toBe('USAGE_ERROR');
        expect(error?.message).toBe(`--target ${target} is neither a target file nor a URL (did you mean https://${target}?)`);
      }),
    );
  });

  it('a URL of any scheme but http and https: a usage error naming the scheme', () => {
    const scheme = fc.stringMatching(/^[a-z][a-z0-9+.-]{0,9}$/).filter((s) => !/^https?$/i.test(s));
    fc.assert(
      fc.property(scheme, host, path, (s, h, rest) => {
        const error = refusal(`${s}://${h}${rest}`);
        expect(error?.code).toBe('USAGE_ERROR');
        expect(error?.message.endsWith(`: a target URL is http or https, not ${s}`)).toBe(true);
      }),
    );
  });

  it('leaves alone what can be a target file: paths, names without a port, and a file that exists under a host:port name', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('target.yaml', './t.yml', '/etc/target.yaml', 'C:target', 'a:b', 'dir/x:80'), fc.webPath().filter((p) => p.startsWith('/'))), (target) => {
        expect(refusal(target)).toBeUndefined();
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), 'cpr-url-like-'));
    const file = join(dir, '127.0.0.1:8443');
    writeFileSync(file, '');
    // An absolute name never reads as host:port.
    expect(refusal(file)).toBeUndefined();
    // A bare host:port name is a file when one of that name is there (relative to the working folder), a URL meant when none is.
    const name = `127.0.0.1:${20_000 + Math.floor(Math.random() * 40_000)}`;
    writeFileSync(name, '');
    try {
      expect(refusal(name)).toBeUndefined();
    } finally {
      rmSync(name, { force: true });
    }
    expect(refusal(name)?.code).toBe('USAGE_ERROR');
  });
});
