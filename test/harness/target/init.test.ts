import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { targetTemplate } from '../../../harness/target/init.ts';
import { loadTargetFile, validateShape } from '../../../harness/target/load.ts';

const dir = mkdtempSync(join(tmpdir(), 'cpr-init-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the target template', () => {
  it('loads as written', () => {
    const file = join(dir, 'target.yaml');
    writeFileSync(file, targetTemplate());
    const config = loadTargetFile(file);
    expect(config.payee).toMatchObject({ adapter: 'http', capabilities: 'auto' });
    expect(config.operator).toMatchObject({ adapter: 'http', capabilities: 'auto' });
  });

  it('explains all three roles and every key of the schema', () => {
    const text = targetTemplate();
    for (const key of ['payee:', 'operator:', 'paying_app:', 'adapter:', 'base_url:', 'plaintext_base_url:', 'ca_file:', 'insecure:', 'token_env:', 'token:', 'capabilities:', 'module:', 'command:', 'settings:', 'credentials:', 'principal:', 'redeemer:', 'identity_level:', 'staff:', 'private_key_file:']) {
      expect(text).toContain(key);
    }
  });

  it('keeps its commented-out paying application valid once uncommented', () => {
    const lines = targetTemplate().split('\n');
    const block: string[] = [];
    // From "# paying_app:" to the first bare "#": the module alternative.
    for (const line of lines.slice(lines.indexOf('# paying_app:'))) {
      if (line === '#') break;
      block.push(line.slice(2));
    }
    const data = YAML.parse(block.join('\n')) as Record<string, unknown>;
    expect(data).toHaveProperty('paying_app.adapter', 'module');
    expect(validateShape(data)).toEqual([]);
  });
});
