// What `run` starts before its own modules load: the embedded reference's
// thread (target/reference-thread.ts), which loads its modules and starts the
// reference with the options `run` starts it with while the harness loads the
// runner's modules and the suites. A hint read from the
// raw arguments, nothing more: run.ts decides which target it certifies
// (target-options.ts targetChoice) and boots the thread itself when this did
// not; a thread booted for a run that then stops at a usage error waits unused
// and never keeps the process alive.
import { bootReferenceThread, EMBEDDED_REFERENCE_OPTIONS } from '../target/reference-thread.ts';

export async function runEarly(argv: readonly string[]): Promise<void> {
  const named = (flag: string) => argv.some((arg) => arg === flag || arg.startsWith(`${flag}=`));
  if (named('--target') || named('--help') || argv.includes('-h')) return;
  bootReferenceThread(EMBEDDED_REFERENCE_OPTIONS);
}
