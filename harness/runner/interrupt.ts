// Ctrl-C during a run. The first SIGINT (or SIGTERM) stops the run: no new test
// starts, the one in flight gets a short grace, and a partial report marked
// incomplete is written (exit 2). A second signal exits at once.
import { EXIT_CODES as EXIT } from '../report/aggregate.ts';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

interface Interrupts {
  /** True once a signal came. */
  readonly fired: boolean;
  /** Settles when the first signal comes. */
  readonly signalled: Promise<void>;
  /** Runs `listener` at the first signal (at once if it already came). */
  onSignal(listener: () => void): void;
  dispose(): void;
}

/** Watches for SIGINT and SIGTERM; `notice` says what each one does (the command's stderr, cli/main.ts). */
export function watchInterrupts(notice: (text: string) => void): Interrupts {
  let fired = false;
  let release!: () => void;
  const signalled = new Promise<void>((resolve) => (release = resolve));
  const listeners: (() => void)[] = [];
  const handler = () => {
    if (fired) {
      notice('cpr-conformance: interrupted again: exiting without a report');
      process.exit(EXIT.error);
    }
    fired = true;
    notice('cpr-conformance: interrupted: stopping the run and writing a partial report (again to exit at once)');
    release();
    for (const listener of listeners) listener();
  };
  for (const signal of SIGNALS) process.on(signal, handler);
  return {
    get fired() {
      return fired;
    },
    signalled,
    onSignal(listener) {
      if (fired) listener();
      else listeners.push(listener);
    },
    dispose() {
      for (const signal of SIGNALS) process.off(signal, handler);
    },
  };
}
