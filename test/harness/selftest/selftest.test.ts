// selftest's worker processes (harness/selftest/selftest.ts): started with the
// environment of the command that starts them, and a worker that fails is said
// through the notice the command gives, never on the process's own stderr.
import { describe, expect, it, vi } from 'vitest';
import { runWorker } from '../../../harness/selftest/selftest.ts';

describe('a selftest worker', () => {
  it('starts with the environment it is given, and a worker that fails is said through the notice', async () => {
    const notices: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write');
    try {
      // A Node option no Node knows: a worker started with this environment stops at once; the process's own is untouched.
      const rows = await runWorker(['payee-request-id-reused'], { env: { ...process.env, NODE_OPTIONS: '--cpr-no-such-node-option' }, notice: (text) => notices.push(text) });
      expect(rows).toEqual([]);
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
    }
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^selftest worker for payee-request-id-reused stopped with \d+: .*--cpr-no-such-node-option/s);
  });
});
