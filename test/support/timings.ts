// `npm run test:timings [fast|slow|matrix]`: where a tier's time goes (npm
// test is the fast tier, `npm run test:slow` the slow one, `npm run selftest`
// the full kill matrix). Runs the tier's steps as
// the tier does (tiers.ts: the commands of one step side by side), with their
// output hidden, and prints each step's wall and CPU time (the CPU of its
// processes, children included, read from /proc on Linux) and the test files
// that took longest. Figures, never judged: timings live here, not in the tests.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT, runCommand, TIERS } from './tiers.ts';

const TOP = Number(process.env['CPR_TIMINGS_TOP'] ?? 15);

/** CPU seconds of this process's waited-for children (and theirs), or undefined off Linux. */
function childrenCpu(): number | undefined {
  try {
    // Fields after the command name: cutime and cstime are the 14th and 15th (clock ticks, 100 per second).
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

interface Phase {
  readonly name: string;
  readonly wallS: number;
  readonly cpuS: number | undefined;
  readonly status: number;
}

interface VitestJson {
  readonly testResults: readonly {
    readonly name: string;
    readonly startTime: number;
    readonly endTime: number;
    readonly message?: string;
    readonly assertionResults: readonly { readonly fullName: string; readonly status: string; readonly failureMessages?: readonly string[] }[];
  }[];
}

const tier = process.argv[2] ?? 'fast';
if (tier !== 'fast' && tier !== 'slow' && tier !== 'matrix') {
  process.stderr.write(`usage: npm run test:timings [-- fast|slow|matrix] (got ${JSON.stringify(tier)})\n`);
  process.exit(2);
}
const out = mkdtempSync(join(tmpdir(), 'cpr-timings-'));
try {
  const json = join(out, 'vitest.json');
  const phases: Phase[] = [];
  for (const step of TIERS[tier]) {
    const cpuBefore = childrenCpu();
    const started = performance.now();
    // vitest also writes its JSON report (per-file figures); the selftest writes its matrix away from reports/.
    const statuses = await Promise.all(
      step.map((c) => runCommand(c, c.kind === 'vitest' ? ['--reporter=json', `--outputFile=${json}`] : c.kind === 'selftest' ? ['--report-dir', join(out, 'selftest')] : [], 'ignore')),
    );
    const wallS = (performance.now() - started) / 1000;
    const cpuAfter = childrenCpu();
    phases.push({ name: step.map((c) => c.name).join(' beside '), wallS, cpuS: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore, status: Math.max(...statuses) });
  }
  const fmt = (s: number | undefined) => (s === undefined ? '     n/a' : `${s.toFixed(1).padStart(7)}s`);
  process.stdout.write(`step${' '.repeat(52)}wall      CPU   exit\n`);
  for (const p of phases) process.stdout.write(`${p.name.padEnd(54)} ${fmt(p.wallS)} ${fmt(p.cpuS)}   ${p.status}\n`);
  const cpu = phases.every((p) => p.cpuS !== undefined) ? phases.reduce((sum, p) => sum + p.cpuS!, 0) : undefined;
  process.stdout.write(`${(tier === 'fast' ? 'npm test' : 'npm run test:slow').padEnd(54)} ${fmt(phases.reduce((sum, p) => sum + p.wallS, 0))} ${fmt(cpu)}\n`);
  let files: VitestJson['testResults'] = [];
  try {
    files = (JSON.parse(readFileSync(json, 'utf8')) as VitestJson).testResults;
  } catch {
    process.stdout.write('\n(vitest wrote no JSON report: no per-file figures)\n');
  }
  if (files.length > 0) {
    const byTime = [...files].map((f) => ({ file: relative(ROOT, f.name), s: (f.endTime - f.startTime) / 1000, tests: f.assertionResults.length })).sort((a, b) => b.s - a.s);
    const total = byTime.reduce((sum, f) => sum + f.s, 0);
    process.stdout.write(`\ntest files by time (${files.length} files, ${total.toFixed(1)} s summed over the workers; top ${Math.min(TOP, byTime.length)}):\n`);
    for (const f of byTime.slice(0, TOP)) process.stdout.write(`${fmt(f.s)}  ${String(f.tests).padStart(4)} tests  ${f.file}\n`);
    // The figures of a red run are still figures, but say what was red.
    const failed = files.flatMap((f) => [
      ...(f.message ? [`${relative(ROOT, f.name)}: ${f.message.split('\n')[0]}`] : []),
      ...f.assertionResults.filter((a) => a.status === 'failed').map((a) => `${relative(ROOT, f.name)} > ${a.fullName}: ${(a.failureMessages?.[0] ?? '').split('\n')[0]}`),
    ]);
    if (failed.length > 0) process.stdout.write(`\nfailed (${failed.length}):\n${failed.map((line) => `  ${line.slice(0, 400)}`).join('\n')}\n`);
  }
  process.exitCode = phases.every((p) => p.status === 0) ? 0 : 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
