// The reference as a worker thread's whole program (harness/target/reference-thread.ts
// starts it). The thread loads its modules first and then waits for the options
// to start with, so a harness can have it load while it loads its own. It then
// runs startReference, posts the facts back once it listens (its URLs, CA and
// the memory its clock is shared in; or the message of why it could not start)
// and closes it when asked, ready to start another. The harness reaches the
// payee and the Operator over HTTP only (their routes and test control), as it
// reaches a server of its own; the reference paying application, a library,
// is served from here too on request, its calls and answers messages, so its
// work (QR codes, retrievals, validation) is not done in the harness's thread.
import { parentPort, type MessagePort } from 'node:worker_threads';
import { APP_SWITCHES, createRole } from './adapter.ts';
import { startReference, type ReferenceOptions, type RunningReference } from './start.ts';

/** What the thread posts to the harness. */
export type ThreadMessage =
  | { readonly kind: 'started'; readonly start: number; readonly url: string; readonly plaintextUrl: string | undefined; readonly ca: string; readonly mutant: string | undefined; readonly clock: SharedArrayBuffer }
  | { readonly kind: 'failed'; readonly start: number; readonly message: string }
  | { readonly kind: 'closed' }
  | { readonly kind: 'switches'; readonly names: readonly string[] }
  | { readonly kind: 'app-answer'; readonly call: number; readonly value?: unknown; readonly thrown?: string };

/** The reference paying application served from this thread (reference/adapter.ts, role paying-app): opened, called, closed. */
type AppCommand =
  | { readonly kind: 'app-open'; readonly call: number; readonly app: number; readonly settings: Readonly<Record<string, unknown>>; readonly ca: string | undefined }
  | {
      readonly kind: 'app-call';
      readonly call: number;
      readonly app: number;
      readonly method: 'read' | 'derive';
      readonly args: readonly unknown[];
      /** The process's TZ as the harness's thread has it at the call (a property judges the application in other zones). */
      readonly zone: string | undefined;
    }
  | { readonly kind: 'app-close'; readonly call: number; readonly app: number };

/** What the harness posts to the thread: start, then close, and so on (and, between them, what switches were consulted). */
/** A start is numbered by the harness; its answer (started, failed) carries the number. */
export type ThreadCommand = { readonly kind: 'start'; readonly start: number; readonly options: ReferenceOptions } | { readonly kind: 'close' } | { readonly kind: 'switches' } | AppCommand;

interface App {
  read(...args: unknown[]): unknown;
  derive(...args: unknown[]): unknown;
  close(): unknown;
}

function serve(port: MessagePort): void {
  const post = (message: ThreadMessage) => port.postMessage(message);
  // The references running in this thread: the first, then any twin started beside it (each on its own ports and clock).
  const running: Promise<RunningReference | undefined>[] = [];
  const apps = new Map<number, App>();
  // The TZ this thread last took for a call (the process's at its start).
  let zone = process.env['TZ'];
  // Each app command is answered once, with its value or the message of what it threw (a value
  // that cannot be posted included: the call is answered, never left waiting).
  const answer = (call: number, work: () => unknown) =>
    void Promise.resolve()
      .then(work)
      .then((value) => post({ kind: 'app-answer', call, value }))
      .catch((error: unknown) => post({ kind: 'app-answer', call, thrown: messageOf(error) }));
  port.on('message', (command: ThreadCommand) => {
    if (command.kind === 'app-open') {
      answer(command.call, () => {
        apps.set(command.app, createRole({ role: 'paying-app', settings: command.settings, ...(command.ca !== undefined ? { ca: command.ca } : {}) }) as App);
        return true;
      });
    } else if (command.kind === 'app-call') {
      answer(command.call, () => {
        const app = apps.get(command.app);
        if (app === undefined) throw new Error(`no paying application ${command.app} is open in this thread`);
        // The thread shares the process's environment, where the harness's thread may have set TZ already;
        // this thread's dates follow a change only once TZ is set here, so it is set whenever the zone of
        // the calls changes, whatever the environment holds.
        if (command.zone !== zone) {
          zone = command.zone;
          if (zone === undefined) delete process.env['TZ'];
          else process.env['TZ'] = zone;
        }
        return app[command.method](...command.args);
      });
    } else if (command.kind === 'app-close') {
      answer(command.call, async () => {
        const app = apps.get(command.app);
        apps.delete(command.app);
        await app?.close();
        return true;
      });
    } else if (command.kind === 'start') {
      // A twin, started beside a running reference on the same host, serves with its TLS material: it makes no CA of its own.
      const first = running[0];
      const starting = (first === undefined ? startReference(command.options) : first.then((reference) => startReference(command.options, reference !== undefined && sameHost(reference, command.options) ? { tls: reference.tls } : {}))).then(
        (reference) => {
          post({ kind: 'started', start: command.start, url: reference.url, plaintextUrl: reference.plaintextUrl, ca: reference.tls.ca, mutant: reference.mutant, clock: reference.clock.share() });
          return reference;
        },
        (error: unknown) => {
          post({ kind: 'failed', start: command.start, message: messageOf(error) });
          return undefined;
        },
      );
      running.push(starting);
    } else if (command.kind === 'switches') {
      // The switches a reference started with recordSwitches consulted since the last ask.
      // The paying application served from this thread notes its own (reference/adapter.ts APP_SWITCHES).
      void Promise.all(running).then((references) => post({ kind: 'switches', names: [...references.flatMap((reference) => reference?.switches?.take() ?? []), ...APP_SWITCHES.take()] }));
    } else if (command.kind === 'close') {
      // Closed, the thread may start another reference (the next mutant of a selftest) without loading again.
      const closing = Promise.all(running.splice(0));
      const open = [...apps.values()];
      apps.clear();
      void closing
        .then(async (references) => {
          await Promise.allSettled(open.map((app) => app.close()));
          await Promise.all(references.map((reference) => reference?.close()));
        })
        .finally(() => post({ kind: 'closed' }));
    }
  });
}

/** Whether `options` listen on the host `reference` listens on (its certificate names it). */
function sameHost(reference: RunningReference, options: ReferenceOptions): boolean {
  return new URL(reference.url).hostname === new URL(`https://${options.host ?? '127.0.0.1'}`).hostname;
}

function messageOf(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

if (parentPort === null) throw new Error('reference/thread.ts is the program of a worker thread, not of a process');
serve(parentPort);
