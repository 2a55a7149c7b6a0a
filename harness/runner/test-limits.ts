// Bounds shared by the scenario and property runtimes: a per-test time limit,
// and what a target that could not be opened in the worker means for a test.
import { HarnessError } from '../cli/errors.ts';
import type { ErrorCode } from '../scenarios/context.ts';

/** The test's own result, or `late()` once `limitMs` has passed (the test is abandoned, not awaited). */
export async function withinTimeLimit<T>(test: Promise<T>, limitMs: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), limitMs);
  });
  try {
    return await Promise.race([test, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** A target that did not open in the worker: unreachable when it did not answer, a harness defect otherwise. */
export function openFailure(error: unknown): { code: ErrorCode; reason: string } {
  if (error instanceof HarnessError && error.code === 'HARNESS_TARGET_UNREACHABLE') return { code: 'HARNESS_TARGET_UNREACHABLE', reason: `not run: ${error.message}` };
  return { code: 'HARNESS_INTERNAL', reason: `not run: the target could not be opened: ${(error as Error)?.message ?? String(error)}` };
}
