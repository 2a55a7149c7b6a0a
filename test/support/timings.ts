// `npm run test:timings`: where npm test's time goes. Runs its three phases as
// npm test does (type check, vitest, the targeted selftest), one after another,
// and prints each phase's wall and CPU time (the CPU of the phase's processes,
// children included, read from /proc on Linux) and the test files that took
// longest. Figures, never judged: timings live here, not in the tests.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
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
  readonly status: number | null;
}

function phase(name: string, command: string, args: readonly string[]): Phase {
  const cpuBefore = childrenCpu();
  const started = performance.now();
  const r = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const wallS = (performance.now() - started) / 1000;
  const cpuAfter = childrenCpu();
  return { name, wallS, cpuS: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore, status: r.status };
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

const out = mkdtempSync(join(tmpdir(), 'cpr-timings-'));
try {
  const json = join(out, 'vitest.json');
  const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
  const phases = [
    phase('type check (tsc --noEmit)', bin('tsc'), ['--noEmit']),
    phase('tests (vitest run)', bin('vitest'), ['run', '--reporter=json', `--outputFile=${json}`]),
    phase('selftest --targeted', process.execPath, [join(ROOT, 'bin/cpr-conformance.js'), 'selftest', '--targeted', '--report-dir', join(out, 'selftest')]),
  ];
  const fmt = (s: number | undefined) => (s === undefined ? '     n/a' : `${s.toFixed(1).padStart(7)}s`);
  process.stdout.write(`phase                          wall      CPU   exit\n`);
  for (const p of phases) process.stdout.write(`${p.name.padEnd(28)} ${fmt(p.wallS)} ${fmt(p.cpuS)}   ${p.status ?? 'signal'}\n`);
  const cpu = phases.every((p) => p.cpuS !== undefined) ? phases.reduce((sum, p) => sum + p.cpuS!, 0) : undefined;
  process.stdout.write(`${'npm test'.padEnd(28)} ${fmt(phases.reduce((sum, p) => sum + p.wallS, 0))} ${fmt(cpu)}\n`);
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
