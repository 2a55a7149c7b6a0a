// Where the throughput phase runs: the target on one core and the harness on
// another, as a target on its own machine would be. On a 2-core machine left
// to the scheduler, the two processes take each other's time, so a harness that
// needs more CPU per request than the raw loop also slows the server it is
// measured against, and the ratio would measure the sharing, not whether the
// harness can keep the server busy. Pinning uses taskset (util-linux); where it
// is missing, or with fewer than two cores, nothing is pinned and the report says so.
import { execFileSync } from 'node:child_process';
import { availableParallelism, platform } from 'node:os';

export interface Pinning {
  /** CPU list (taskset -c) of the harness process, every thread. */
  readonly harness: string;
  /** CPU list of the target's process. */
  readonly target: string;
}

/** The CPUs to pin to (the first two this process may run on), or undefined when pinning is not possible here. */
export function pinningPlan(): Pinning | undefined {
  if (platform() !== 'linux' || availableParallelism() < 2) return undefined;
  let listed: string;
  try {
    listed = execFileSync('taskset', ['-pc', String(process.pid)], { encoding: 'utf8' });
  } catch {
    return undefined;
  }
  const cpus = cpuList(/:\s*([0-9,\s-]+)$/.exec(listed.trim())?.[1] ?? '');
  return cpus.length >= 2 ? { harness: String(cpus[0]), target: String(cpus[1]) } : undefined;
}

/** `0,2-3` as [0, 2, 3]. */
export function cpuList(text: string): number[] {
  const out: number[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [from, to] = part.split('-').map(Number);
    if (!Number.isInteger(from)) continue;
    for (let cpu = from!; cpu <= (Number.isInteger(to) ? to! : from!); cpu++) out.push(cpu);
  }
  return out;
}

/** Pins every thread of this process to `cpus` and returns how to undo it. */
export function pinSelf(cpus: string): () => void {
  const before = /:\s*([0-9a-f]+)\s*$/i.exec(execFileSync('taskset', ['-p', String(process.pid)], { encoding: 'utf8' }))?.[1];
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
  return () => {
    if (before !== undefined) execFileSync('taskset', ['-a', '-p', before, String(process.pid)], { stdio: 'ignore' });
  };
}
