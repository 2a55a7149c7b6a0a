// Validators compile on first use, not at import: `run` and `certify` import
// nearly the whole harness, and a command or a test that never validates a
// scenario, a payload or a message must not pay for compiling their schemas.
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it, vi } from 'vitest';

/** Counts schemas added or compiled by any Ajv2020 instance while `load` runs. */
async function compilationsDuring(load: () => Promise<unknown>): Promise<number> {
  const proto = Ajv2020.default.prototype;
  const compile = vi.spyOn(proto, 'compile');
  const add = vi.spyOn(proto, 'addSchema');
  try {
    await load();
    return compile.mock.calls.length + add.mock.calls.length;
  } finally {
    compile.mockRestore();
    add.mockRestore();
  }
}

describe('schema validators', () => {
  it('are not compiled when the run and certify commands are imported', async () => {
    vi.resetModules();
    expect(await compilationsDuring(() => Promise.all([import('../../harness/cli/run.ts'), import('../../harness/cli/certify.ts')]))).toBe(0);
  });

  it('are compiled on first use: the scenario schema, the payload schemas and the message schemas', async () => {
    vi.resetModules();
    const { loadSuites } = await import('../../harness/scenarios/load.ts');
    const { payloadSchemaErrors } = await import('../../harness/scenarios/checks.ts');
    const { validateMessage } = await import('../../profile/cashpack/index.ts');
    expect(await compilationsDuring(async () => loadSuites())).toBeGreaterThan(0);
    expect(await compilationsDuring(async () => payloadSchemaErrors('payment', {}))).toBeGreaterThan(0);
    expect(await compilationsDuring(async () => validateMessage('policy', {}))).toBeGreaterThan(0);
    // Once compiled, kept: a second use compiles nothing.
    expect(await compilationsDuring(async () => [loadSuites(), payloadSchemaErrors('payment', {}), validateMessage('policy', {})])).toBe(0);
  });
});
