// Terminal output. On a TTY (and not CI) one progress line is redrawn; otherwise
// each result is a plain line. NO_COLOR turns colour off. Target-supplied text
// never reaches the terminal raw (stripControl).
import type { TestResult } from '../report/model.ts';
import { missingRole, shownOutcome, type ShownOutcome, reasonText } from '../report/wording.ts';
import { stripControl } from '../text.ts';
import type { CommandIo, OutputStream } from '../io.ts';

export interface Terminal {
  /** `latest` as assessed (aggregate.ts warningJudge): a failed test whose failures are all warnings is shown as one. */
  progress(done: number, total: number, latest: TestResult, counts: Readonly<Record<ShownOutcome, number>>): void;
  endProgress(): void;
  line(text: string): void;
  error(text: string): void;
}

const LABEL: Record<ShownOutcome, string> = { passed: 'PASS', failed: 'FAIL', warning: 'WARN', skipped: 'SKIP', 'not-applicable': 'N/A ', error: 'ERR ' };
const COLOR: Record<ShownOutcome, number> = { passed: 32, failed: 31, warning: 93, skipped: 33, 'not-applicable': 90, error: 35 };

/** Outcomes printed on a line of their own above the live progress line. */
const NOTED: readonly ShownOutcome[] = ['failed', 'warning', 'error'];

/** A command's terminal: its streams and environment (cli/main.ts). */
export function terminalOf(io: CommandIo): Terminal {
  return createTerminal(io.stdout, io.env, io.stderr);
}

/** Lines to `stream`, errors to `errors`, as `env` says (CI, NO_COLOR, TERM). */
export function createTerminal(stream: OutputStream, env: CommandIo['env'], errors: OutputStream): Terminal {
  const live = stream.isTTY === true && !env.CI;
  const colour = live && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  const paint = (code: number, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  let drawn = false;
  // A role the target does not have is said once, not once for each of its tests.
  const saidMissing = new Set<string>();
  return {
    progress(done, total, latest, counts) {
      const shown = shownOutcome(latest);
      if (live) {
        const line = `[${done}/${total}] ${stripControl(latest.sections[0] ?? '')} ${latest.file.replace(/^suites\//, '')}  ${paint(32, `✓ ${counts.passed}`)}  ${paint(31, `✗ ${counts.failed}`)}  ${paint(COLOR.warning, `! ${counts.warning}`)}  skipped ${counts.skipped + counts['not-applicable']}  errors ${counts.error}`;
        stream.write(`\r\u001b[2K${line.slice(0, (stream.columns ?? 120) + 40)}`);
        drawn = true;
        if (NOTED.includes(shown)) stream.write(`\r\u001b[2K${paint(COLOR[shown], LABEL[shown])} ${latest.id} ${stripControl(latest.title)}\n`);
      } else {
        const missing = missingRole(latest);
        if (missing !== undefined) {
          if (!saidMissing.has(missing)) stream.write(`${LABEL[shown]} every ${missing} test: the target has no ${missing} role (said once; counted at the end)\n`);
          saidMissing.add(missing);
          return;
        }
        stream.write(`${LABEL[shown]} ${latest.id} ${stripControl(latest.title)}${latest.reason && latest.status !== 'passed' ? ` — ${stripControl(reasonText(latest)!).slice(0, 300)}` : ''}\n`);
      }
    },
    endProgress() {
      if (drawn) stream.write('\r\u001b[2K');
      drawn = false;
    },
    line(text) {
      stream.write(`${stripControl(text)}\n`);
    },
    error(text) {
      errors.write(`${stripControl(text)}\n`);
    },
  };
}
