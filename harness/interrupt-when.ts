// A fast-check run's time limit that never cuts a case short.
//
// fast-check's own interruptAfterTimeLimit races the case in flight against
// the limit and moves on without it: a case against a live target keeps
// sending requests, holding the process's time zone or the target's clock,
// while the next test runs, and what it does there is charged to that test.
// This plugin stops the check only between cases: the case in flight ends
// first, and the check is interrupted (as the time limit would) before the
// next one.
import fc from 'fast-check';

/** A fast-check plugin that interrupts the check, as its time limit would, before the next case once `stop` says so. */
export function interruptWhen<Ts>(stop: () => boolean): fc.Plugin<Ts> {
  return () => ({ decorateRun: (nestedRun) => (value) => (stop() ? Promise.resolve(new fc.PreconditionFailure(true)) : nestedRun(value)) });
}
