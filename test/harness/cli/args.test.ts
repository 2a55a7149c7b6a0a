// A command's --help is written from the options it declares: the declaration
// that parses a flag is the one that documents it.
import { describe, expect, it } from 'vitest';
import { helpEntry, meant, optionLines, optionsHelp, SYNONYMS, type Declared } from '../../../harness/cli/args.ts';
import { CERTIFY_OPTIONS } from '../../../harness/cli/certify.ts';
import { FUZZ_OPTIONS } from '../../../harness/cli/fuzz.ts';
import { FUZZ_ROLES_OPTIONS } from '../../../harness/cli/fuzz-roles-of.ts';
import { REPLAY_OPTIONS } from '../../../harness/cli/replay.ts';
import { SELFTEST_OPTIONS } from '../../../harness/cli/selftest.ts';
import { SERVE_OPTIONS } from '../../../harness/cli/serve.ts';
import { VECTORS_GENERATE_OPTIONS, VECTORS_VERIFY_OPTIONS } from '../../../harness/cli/vectors.ts';
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
import { didYouMean } from '../../../harness/text.ts';

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

/** Every command and subcommand, with the options it declares. */
const DECLARED: readonly (readonly [string, Readonly<Record<string, Declared>>])[] = [
  ['run', RUN_OPTIONS],
  ['list', LIST_OPTIONS],
  ['explain', EXPLAIN_OPTIONS],
  ['coverage', COVERAGE_OPTIONS],
  ['fuzz', FUZZ_OPTIONS],
  ['fuzz merge', FUZZ_MERGE_OPTIONS],
  ['fuzz roles', FUZZ_ROLES_OPTIONS],
  ['replay', REPLAY_OPTIONS],
  ['serve', SERVE_OPTIONS],
  ['selftest', SELFTEST_OPTIONS],
  ['vectors', { ...VECTORS_GENERATE_OPTIONS, ...VECTORS_VERIFY_OPTIONS }],
  ['bench', BENCH_OPTIONS],
  ['init', INIT_OPTIONS],
  ['report merge', REPORT_OPTIONS],
  ['compare', COMPARE_OPTIONS],
  ['certify', CERTIFY_OPTIONS],
  ['verify-package', VERIFY_OPTIONS],
];

/**
 * What is wrong with a --help against the declarations: an entry listed twice
 * or not declared, a declared option not listed, or listed in words other than
 * its declaration's (a --help written by hand).
 */
function helpProblems(help: string, options: Readonly<Record<string, Declared>>): string[] {
  const listed = [...help.matchAll(/^ {2}(?:-h, )?--([a-z][a-z-]*)/gm)].map((m) => m[1]!);
  const declared = [...Object.keys(options), 'help'];
  return [
    ...listed.filter((name, i) => listed.indexOf(name) !== i).map((name) => `--${name} listed twice`),
    ...listed.filter((name) => !declared.includes(name)).map((name) => `--${name} listed, not declared`),
    ...declared.filter((name) => !listed.includes(name)).map((name) => `--${name} declared, not listed`),
    ...Object.entries(options)
      .filter(([name, option]) => !help.includes(optionLines({ [name]: option })))
      .map(([name]) => `--${name} not in the words of its declaration`),
  ];
}

describe('the --help of every command', () => {
  it('covers every command main() lists', async () => {
    const top = await cliHere(['--help']);
    const commands = [...top.stdout.slice(top.stdout.indexOf('\nCommands:\n')).matchAll(/^ {2}([a-z-]+) {2}/gm)].map((m) => m[1]);
    expect(commands.length).toBeGreaterThan(10);
    expect([...new Set(DECLARED.map(([command]) => command.split(' ')[0]))].sort()).toEqual([...commands].sort());
  });

  it.each(DECLARED)('%s lists exactly the options it parses, each in the words of its declaration', async (command, options) => {
    const r = await cliHere([...command.split(' '), '--help']);
    expect(r.status).toBe(0);
    expect(helpProblems(r.stdout, options)).toEqual([]);
  });

  it('would see an entry written by hand, one left out and one not declared', async () => {
    const help = (await cliHere(['serve', '--help'])).stdout;
    const entry = optionLines({ port: SERVE_OPTIONS.port });
    expect(helpProblems(help.replace(entry, entry.replace(/^( {2}--port N) +/, '$1   ')), SERVE_OPTIONS)).toEqual(['--port not in the words of its declaration']);
    expect(helpProblems(help.replace(`${entry}\n`, ''), SERVE_OPTIONS)).toEqual(['--port declared, not listed', '--port not in the words of its declaration']);
    expect(helpProblems(`${help}  --portal N   a door\n`, SERVE_OPTIONS)).toEqual(['--portal listed, not declared']);
  });

  it.each(DECLARED)('%s refuses a misspelt option with USAGE_ERROR, naming the option meant', async (command, options) => {
    for (const name of Object.keys(options)) {
      const typo = `--${name.slice(0, -1)}${name.endsWith('x') ? 'y' : 'x'}`;
      const r = await cliHere([...command.split(' '), typo]);
      expect(r.status, typo).toBe(2);
      expect(r.stderr, typo).toContain(`cpr-conformance: USAGE_ERROR: Unknown option '${typo}' (did you mean --${name}?)`);
      expect(r.stderr, typo).toMatch(new RegExp(`\\n {2}hint: see: cpr-conformance ${command.split(' ')[0]}( [a-z]+)? --help\\n`));
    }
  });
});

describe('another tool\'s name for a flag', () => {
  it.each(DECLARED)('%s answers with the flags it has of the same meaning, and never a flag it lacks', (_command, options) => {
    const known = [...Object.keys(options), 'help'].map((name) => `--${name}`);
    for (const group of SYNONYMS) {
      const declared = group.filter((flag) => known.includes(flag));
      for (const typed of group.filter((flag) => !known.includes(flag))) {
        const answer = meant(typed, known);
        const named = /^ \(did you mean (.+)\?\)$/.exec(answer)?.[1]?.split(' or ') ?? [];
        for (const flag of named) expect(known, `${typed}: ${answer}`).toContain(flag);
        if (declared.length > 0) expect(named.length, typed).toBeGreaterThan(0);
        // A close spelling comes first (--output for --out); without one, every flag of the group the command has.
        if (didYouMean(typed, known) === '') expect(named, typed).toEqual(declared);
      }
    }
  });

  it('is named in the usage error, end to end', async () => {
    const r = await cliHere(['report', 'merge', 'x', '--out', 'y']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("USAGE_ERROR: Unknown option '--out' (did you mean --report-dir?)");
    const f = await cliHere(['fuzz', '--seconds', '3']);
    expect(f.stderr).toContain("USAGE_ERROR: Unknown option '--seconds' (did you mean --time?)");
  });

  it('is nothing for a flag no group holds and nothing is close to', () => {
    expect(meant('--frobnicate', ['--out', '--time'])).toBe('');
  });
});

describe('the target flags run, certify and fuzz share', () => {
  it.each(['run', 'certify', 'fuzz'])('are each named in %s --help', async (command) => {
    const help = (await cliHere([command, '--help'])).stdout;
    for (const name of Object.keys(TARGET_FLAGS)) expect(help).toMatch(new RegExp(`--${name}\\b`));
  });

  it.each(['run', 'certify', 'fuzz'])('are described in %s --help in the words of their declarations', async (command) => {
    expect((await cliHere([command, '--help'])).stdout).toContain(LIFECYCLE_HELP);
  });
});
