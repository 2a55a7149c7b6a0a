// What the target answered where a check failed, in one line every view shows
// beside the check: the request, the status, the problem code and its detail
// (RFC 9457), or the start of the body. The transcript in report.json holds the
// whole exchange; this is the part a developer reads first.
import type { CheckResult, Exchange, TestResult } from './model.ts';
import { elideBlobs } from './json.ts';

/** How much of a detail or a body the line quotes. */
const QUOTED = 200;

/**
 * The answer a check judged: the last exchange of the check's step that got
 * an answer (or a transport error); for a check without a step (a property's),
 * the test's last exchange. Undefined when the test sent nothing (an
 * in-process paying application, a check of the harness's own values).
 */
export function answerOf(test: Pick<TestResult, 'transcript'>, check?: Pick<CheckResult, 'step'>): Exchange | undefined {
  const exchanges = check?.step === undefined ? test.transcript : test.transcript.filter((e) => e.step === check.step);
  return exchanges.findLast((e) => e.response !== undefined || e.error !== undefined);
}

/**
 * "POST /v1/cashpack/issue answered 422, problem AMOUNT_EXCEEDS_LIMIT: amount
 * above max_amount", "GET /cpr/ab12 answered 200, body {"cpr_version":...", or
 * "... got no answer: timeout". Text from the target: each view escapes it.
 */
export function answerText(exchange: Exchange): string {
  const asked = `${exchange.request.method} ${pathOf(exchange.request.url)}`;
  const response = exchange.response;
  if (response === undefined) return `${asked} got no answer: ${exchange.error ?? 'none'}`;
  const problem = problemOf(response.body);
  if (problem !== undefined) {
    const detail = typeof problem['detail'] === 'string' ? `: ${quoted(problem['detail'])}` : typeof problem['title'] === 'string' ? `: ${quoted(problem['title'])}` : '';
    return `${asked} answered ${response.status}, problem ${typeof problem['code'] === 'string' ? quoted(problem['code']) : '(no code)'}${detail}`;
  }
  const body = response.body === undefined || response.body === '' ? 'an empty body' : `body ${quoted(response.body)}${response.truncated ? ' [truncated]' : ''}`;
  return `${asked} answered ${response.status}, ${body}`;
}

/** The answer of a failed check as one line, or nothing when the test sent no request. */
export function answerLine(test: Pick<TestResult, 'transcript'>, check?: Pick<CheckResult, 'step'>): string | undefined {
  const exchange = answerOf(test, check);
  return exchange === undefined ? undefined : answerText(exchange);
}

/** A JSON object with a `code` member: a problem, whatever its media type said. */
function problemOf(body: string | undefined): Record<string, unknown> | undefined {
  if (body === undefined || !body.trimStart().startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'code' in value ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function quoted(text: string): string {
  const line = elideBlobs(text).replace(/\s+/g, ' ').trim();
  return line.length > QUOTED ? `${line.slice(0, QUOTED)}…` : line;
}

/** The path and query of a URL (the host is the target's, said once elsewhere). */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** How many failed checks a plain-text view lists for one test before it says how many more. */
const LISTED_CHECKS = 6;

/**
 * A test's failed checks as plain-text lines, each step's answer once after
 * its checks: what the terminal and `explain --report` print under a failure.
 * A test that failed without a check (a harness error) gets its last answer.
 */
export function failedCheckLines(test: Pick<TestResult, 'checks' | 'transcript'>): string[] {
  const failed = test.checks.filter((c) => !c.passed);
  const listed = failed.slice(0, LISTED_CHECKS);
  const lines: string[] = [];
  listed.forEach((c, i) => {
    lines.push(`${c.check} (${c.requirement})${c.step === undefined ? '' : ` at step ${c.step}`}: ${c.message}`);
    if (listed[i + 1]?.step !== c.step || i === listed.length - 1) {
      const answer = answerLine(test, c);
      if (answer !== undefined) lines.push(`  answer: ${answer}`);
    }
  });
  if (failed.length > listed.length) lines.push(`and ${failed.length - listed.length} more failed check(s): see report.json or report.html`);
  if (failed.length === 0) {
    const answer = answerLine(test);
    if (answer !== undefined) lines.push(`last answer: ${answer}`);
  }
  return lines;
}
