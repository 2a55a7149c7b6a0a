import { describe, expect, it, vi } from 'vitest';
import { VECTORS_HELP, vectors } from '../../harness/cli/vectors.ts';
import { HarnessError } from '../../harness/errors.ts';

describe('cpr-conformance vectors', () => {
  it('generate --check exits 0 when the committed files are current', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await vectors(['generate', '--check'])).toBe(0);
      expect(write).toHaveBeenCalledWith('vectors are up to date\n');
    } finally {
      write.mockRestore();
    }
  });

  it('documents both subcommands and every option', () => {
    for (const option of ['generate', '--check', 'verify', '--target', '--ca', '--kind', '--json', '--failures']) expect(VECTORS_HELP).toContain(option);
  });

  it.each([
    [['frobnicate'], /unknown vectors command "frobnicate"/],
    [['verify', '--check'], /--check is not an option of vectors verify/],
    [['verify', '--kind', 'nonsense'], /--kind takes one of/],
    [['verify', '--ca', 'ca.pem'], /--ca goes with --target URL/],
    [['generate', '--bogus'], /Unknown option '--bogus'/],
  ])('rejects %j with USAGE_ERROR', async (argv, message) => {
    const error = await vectors(argv).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('USAGE_ERROR');
    expect((error as HarnessError).message).toMatch(message);
  });
});
