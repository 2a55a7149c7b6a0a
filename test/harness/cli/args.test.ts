// A command's --help is written from the options it declares: the declaration
// that parses a flag is the one that documents it.
import { describe, expect, it } from 'vitest';
import { helpEntry, optionsHelp, type Declared } from '../../../harness/cli/args.ts';
import { BENCH_OPTIONS } from '../../../harness/cli/bench.ts';
import { COMPARE_OPTIONS } from '../../../harness/cli/compare.ts';
import { COVERAGE_OPTIONS } from '../../../harness/cli/coverage.ts';
import { EXPLAIN_OPTIONS } from '../../../harness/cli/explain.ts';
import { FUZZ_MERGE_OPTIONS } from '../../../harness/cli/fuzz-merge.ts';
import { INIT_OPTIONS } from '../../../harness/cli/init.ts';
import { LIST_OPTIONS } from '../../../harness/cli/list.ts';
import { REPORT_OPTIONS } from '../../../harness/cli/report.ts';
import { RUN_OPTIONS } from '../../../harness/cli/run.ts';
import { VERIFY_OPTIONS } from '../../../harness/cli/verify-package.ts';
import { LIFECYCLE_HELP, TARGET_FLAGS } from '../../../harness/cli/target-options.ts';
import { cliHere } from '../hostile/support.ts';

describe('optionsHelp', () => {
  it('gives each declared option one entry, in order, with its value name, then -h, --help', () => {
    const text = optionsHelp({
      out: { type: 'string', value: 'DIR', help: 'where to write' },
      only: { type: 'string', multiple: true, value: 'ID', help: 'a test to run' },
      quick: { type: 'boolean', help: 'a smoke test' },
    });
    expect(text.split('\n')).toEqual([
      '  --out DIR             where to write',
      '  --only ID             a test to run; repeatable',
      '  --quick               a smoke test',
      '  -h, --help            show this help',
    ]);
  });

  it('wraps a long description from column 25 and keeps every line within 80 characters', () => {
    const lines = helpEntry('  --a-rather-long-flag-name VALUE', 'word '.repeat(40).trim()).split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {24}\S/);
  });
});

describe('the --help of a command that declares its options', () => {
  it.each<[string, Readonly<Record<string, Declared>>]>([
    ['init', INIT_OPTIONS],
    ['coverage', COVERAGE_OPTIONS],
    ['report', REPORT_OPTIONS],
    ['list', LIST_OPTIONS],
    ['explain', EXPLAIN_OPTIONS],
    ['verify-package', VERIFY_OPTIONS],
    ['compare', COMPARE_OPTIONS],
    ['fuzz merge', FUZZ_MERGE_OPTIONS],
    ['bench', BENCH_OPTIONS],
  ])('%s lists exactly the options it parses', async (command, options) => {
    const r = await cliHere([...command.split(' '), '--help']);
    expect(r.status).toBe(0);
    const section = r.stdout.slice(r.stdout.indexOf('\nOptions:\n'));
    const listed = [...section.matchAll(/^ {2}(?:-h, )?--([a-z][a-z-]*)/gm)].map((m) => m[1]);
    expect(listed).toEqual([...Object.keys(options), 'help']);
    expect(section).toContain(optionsHelp(options));
  });
});

describe('run --help, its options under headings', () => {
  it('lists exactly the options run parses, each once', async () => {
    const help = (await cliHere(['run', '--help'])).stdout;
    const listed = [...help.matchAll(/^ {2}(?:-h, )?--([a-z][a-z-]*)/gm)].map((m) => m[1]);
    expect([...listed].sort()).toEqual([...Object.keys(RUN_OPTIONS), 'help'].sort());
  });
});

describe('the target flags run, certify and fuzz share', () => {
  it.each(['run', 'certify', 'fuzz'])('are each named in %s --help', async (command) => {
    const help = (await cliHere([command, '--help'])).stdout;
    for (const name of Object.keys(TARGET_FLAGS)) expect(help).toMatch(new RegExp(`--${name}\\b`));
  });

  it('are described in run --help in the words of their declarations (certify and fuzz refer to run)', async () => {
    expect((await cliHere(['run', '--help'])).stdout).toContain(LIFECYCLE_HELP);
  });
});
