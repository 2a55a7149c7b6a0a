// Terminal output. On a TTY (and not CI) one progress line is redrawn; otherwise
// each result is a plain line. NO_COLOR turns colour off. Target-supplied text
// never reaches the terminal raw (stripControl).
import type { Outcome, TestResult } from '../report/model.ts';
import { stripControl } from '../text.ts';

export interface Terminal {
  progress(done: number, total: number, latest: TestResult, counts: Readonly<Record<Outcome, number>>): void;
  endProgress(): void;
  line(text: string): void;
  error(text: string): void;
}

const LABEL: Record<Outcome, string> = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP', 'not-applicable': 'N/A ', error: 'ERR ' };
const COLOR: Record<Outcome, number> = { passed: 32, failed: 31, skipped: 33, 'not-applicable': 90, error: 35 };

export function createTerminal(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env): Terminal {
  const live = stream.isTTY === true && !env.CI;
  const colour = live && env.NO_COLOR === undefined && env.TERM !== 'dumb';
  const paint = (code: number, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  let drawn = false;
  return {
    progress(done, total, latest, counts) {
      if (live) {
        const line = `[${done}/${total}] ${stripControl(latest.sections[0] ?? '')} ${latest.file.replace(/^suites\//, '')}  ${paint(32, `✓ ${counts.passed}`)}  ${paint(31, `✗ ${counts.failed}`)}  skipped ${counts.skipped + counts['not-applicable']}  errors ${counts.error}`;
        stream.write(`\r\u001b[2K${line.slice(0, (stream.columns ?? 120) + 40)}`);
        drawn = true;
        if (latest.status === 'failed' || latest.status === 'error') {
          stream.write(`\r\u001b[2K${paint(COLOR[latest.status], LABEL[latest.status])} ${latest.id} ${stripControl(latest.title)}\n`);
        }
      } else {
        stream.write(`${LABEL[latest.status]} ${latest.id} ${stripControl(latest.title)}${latest.reason && latest.status !== 'passed' ? ` — ${stripControl(latest.reason).slice(0, 300)}` : ''}\n`);
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
      process.stderr.write(`${stripControl(text)}\n`);
    },
  };
}
