// The reference as a worker thread's whole program (harness/target/reference-thread.ts
// starts it). The thread loads its modules first and then waits for the options
// to start with, so a harness can have it load while it loads its own. It then
// runs startReference, posts the facts back once it listens (its URLs, CA and
// the memory its clock is shared in; or the message of why it could not start) and closes it when asked, ready to start another. The harness reaches it over
// HTTP only (its routes and test control), as it reaches a server of its own.
import { parentPort, type MessagePort } from 'node:worker_threads';
import { startReference, type ReferenceOptions, type RunningReference } from './start.ts';

/** What the thread posts to the harness. */
export type ThreadMessage =
  | { readonly kind: 'started'; readonly url: string; readonly plaintextUrl: string | undefined; readonly ca: string; readonly mutant: string | undefined; readonly clock: SharedArrayBuffer }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'closed' }
  | { readonly kind: 'switches'; readonly names: readonly string[] };

/** What the harness posts to the thread: start, then close, and so on (and, between them, what switches were consulted). */
export type ThreadCommand = { readonly kind: 'start'; readonly options: ReferenceOptions } | { readonly kind: 'close' } | { readonly kind: 'switches' };

function serve(port: MessagePort): void {
  const post = (message: ThreadMessage) => port.postMessage(message);
  let running: Promise<RunningReference | undefined> | undefined;
  port.on('message', (command: ThreadCommand) => {
    if (command.kind === 'start' && running === undefined) {
      running = startReference(command.options).then(
        (reference) => {
          post({ kind: 'started', url: reference.url, plaintextUrl: reference.plaintextUrl, ca: reference.tls.ca, mutant: reference.mutant, clock: reference.clock.share() });
          return reference;
        },
        (error: unknown) => {
          post({ kind: 'failed', message: (error as Error)?.message ?? String(error) });
          return undefined;
        },
      );
    } else if (command.kind === 'switches') {
      // The switches a reference started with recordSwitches consulted since the last ask.
      void (running ?? Promise.resolve(undefined)).then((reference) => post({ kind: 'switches', names: reference?.switches?.take() ?? [] }));
    } else if (command.kind === 'close') {
      // Closed, the thread may start another reference (the next mutant of a selftest) without loading again.
      const closing = running ?? Promise.resolve(undefined);
      running = undefined;
      void closing.then((reference) => reference?.close()).finally(() => post({ kind: 'closed' }));
    }
  });
}

if (parentPort === null) throw new Error('reference/thread.ts is the program of a worker thread, not of a process');
serve(parentPort);
