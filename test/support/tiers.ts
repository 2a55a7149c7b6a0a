// The project's own test tiers, one home for what each runs:
//   npm test            tsx test/support/tiers.ts fast
//   npm run test:slow   tsx test/support/tiers.ts slow
//   npm run selftest    the full kill matrix (`matrix`, for timings.ts)
// A tier is a list of steps run one after another; the commands of one step
// run side by side (the type check needs no test and no test needs it, so it
// runs beside the tests). A step that fails stops the tier after it: its
// output says what failed, and the steps after it are named as not run.
// `npm run test:timings` runs the same steps and times them (timings.ts).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Command {
  readonly name: string;
  /** What the command is, for timings.ts to ask it for its figures. */
  readonly kind: 'typecheck' | 'vitest' | 'selftest';
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

const bin = (name: string): string => join(ROOT, 'node_modules', '.bin', name);
const selftest = (name: string, ...args: string[]): Command => ({ name, kind: 'selftest', command: process.execPath, args: [join(ROOT, 'bin/cpr-conformance.js'), 'selftest', ...args] });

export const TIERS: Readonly<Record<'fast' | 'slow' | 'matrix', readonly (readonly Command[])[]>> = {
  // Under two minutes on a quiet 2-core machine: every file outside
  // vitest.config.ts's SLOW list, and each mutant against its own tests.
  fast: [
    [
      { name: 'type check (tsc --noEmit)', kind: 'typecheck', command: bin('tsc'), args: ['--noEmit'] },
      { name: 'tests (vitest, fast tier)', kind: 'vitest', command: bin('vitest'), args: ['run', '--project', 'shared', '--project', 'isolated'] },
    ],
    [selftest('selftest --targeted', '--targeted')],
  ],
  // The files of SLOW, with the packed package and the Stryker check switched on.
  slow: [[{ name: 'tests (vitest, slow tier)', kind: 'vitest', command: bin('vitest'), args: ['run', '--project', 'slow'], env: { CPR_PACK_TEST: '1', CPR_MUTATION_CHECK: '1' } }]],
  // `npm run selftest` on its own: every mutant against every test that reaches its switch.
  matrix: [[selftest('selftest (full kill matrix)')]],
};

/** Runs one command with the terminal's streams; resolves with its exit status (1 for a signal or a failed start). */
export function runCommand(command: Command, extraArgs: readonly string[] = [], stdio: 'inherit' | 'ignore' = 'inherit'): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command.command, [...command.args, ...extraArgs], { cwd: ROOT, stdio: ['ignore', stdio, 'inherit'], env: { ...process.env, ...command.env } });
    child.once('error', (error) => {
      process.stderr.write(`${command.name}: could not start: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

async function runTier(name: keyof typeof TIERS): Promise<number> {
  const steps = TIERS[name];
  for (const [i, step] of steps.entries()) {
    const statuses = await Promise.all(step.map((command) => runCommand(command)));
    const failed = step.filter((_, j) => statuses[j] !== 0).map((c) => c.name);
    if (failed.length > 0) {
      const skipped = steps.slice(i + 1).flat().map((c) => c.name);
      process.stderr.write(`\n${name} tier failed: ${failed.join(', ')}${skipped.length > 0 ? `; not run: ${skipped.join(', ')}` : ''}\n`);
      return 1;
    }
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const name = process.argv[2];
  if (name !== 'fast' && name !== 'slow') {
    process.stderr.write(`usage: tsx test/support/tiers.ts fast|slow (got ${name === undefined ? 'nothing' : JSON.stringify(name)})\n`);
    process.exitCode = 2;
  } else {
    process.exitCode = await runTier(name);
  }
}
