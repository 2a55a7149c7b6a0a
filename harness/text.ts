// Text from a target is never printed raw: control characters (ANSI escapes
// included) are replaced, so a hostile implementation cannot drive the terminal.
// Also the other small words the harness makes: did-you-mean, and the time
// stamps in the names of the folders and files it writes.
import { randomBytes } from 'node:crypto';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function stripControl(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Edit distance (insert, delete, substitute, swap of neighbours), for "did you mean". */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known word a mistyped one most likely meant: the nearest by edit distance
 * (case ignored) within a third of its length (at least 1, at most 3), or the
 * one word that begins, or is the beginning of, the typed one; undefined when
 * nothing is close.
 */
function closest(word: string, known: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  if (typed === '') return undefined;
  let best: { word: string; d: number } | undefined;
  for (const candidate of known) {
    const d = distance(typed, candidate.toLowerCase());
    if (!best || d < best.d) best = { word: candidate, d };
  }
  const limit = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  if (best && best.d <= limit) return best.word;
  // A word cut short (--bas for --baseline) or run on (--target-file for --target).
  const prefixed = known.filter((candidate) => candidate.toLowerCase().startsWith(typed) || (candidate.length >= 4 && typed.startsWith(candidate.toLowerCase())));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** " (did you mean X?)" or nothing. */
export function didYouMean(word: string, known: readonly string[], show: (w: string) => string = (w) => w): string {
  const guess = closest(word, known);
  return guess === undefined ? '' : ` (did you mean ${show(guess)}?)`;
}

/** A time for file and folder names: 2026-11-25T15:29:41.884Z as 20261125-152941. */
export function fileStamp(at: Date | string): string {
  return (typeof at === 'string' ? at : at.toISOString()).replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
}

/** A folder name of its own: fileStamp, then four random hex digits, so two runs in one second do not share a folder. */
export function uniqueStamp(at: Date): string {
  return `${fileStamp(at)}-${randomBytes(2).toString('hex')}`;
}
