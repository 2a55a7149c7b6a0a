// A requirements.yaml that does not load is reported under its code with a
// hint, never as HARNESS_INTERNAL with a stack trace.
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../profile/registry.ts', async (original) => {
  const actual = await original<typeof import('../../profile/registry.ts')>();
  const broken = () => {
    throw new actual.RegistryError('suites/requirements.yaml', [{ entry: '(document)', field: '(syntax)', expected: 'valid YAML: bad indentation' }]);
  };
  return { ...actual, loadRegistry: broken, findRequirement: broken };
});

const { main } = await import('../../harness/cli/main.ts');

describe('a broken requirement registry', () => {
  it('fails the command with REGISTRY_INVALID, the problem and a hint, exit 2', async () => {
    const err: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
    try {
      expect(await main(['explain', 'TOK-ONCE-1'])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    const text = err.join('');
    expect(text).toMatch(/^cpr-conformance: REGISTRY_INVALID: suites\/requirements\.yaml is invalid \(1 problem\):\n  - \(document\), field "\(syntax\)": expected valid YAML: bad indentation\n  hint: suites\/requirements\.schema\.json/);
    expect(text).not.toMatch(/HARNESS_INTERNAL|\n\s+at /);
  });
});
