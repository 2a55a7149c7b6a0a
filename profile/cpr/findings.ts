// Collects violations with JSON Pointer paths (RFC 6901), so a validator can
// report every broken rule rather than the first.
import type { Violation } from './types.ts';

/** A check's result: a message (the rule's own requirement) or a message under another requirement. */
export type Finding = string | { readonly requirement: string; readonly message: string };

export function pointer(...segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + String(s).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}

export class Findings {
  readonly list: Violation[] = [];

  add(requirement: string, path: string, message: string): void {
    this.list.push({ requirement, path, message });
  }

  /** Records a check's finding, if any, under `requirement` unless the finding names its own. */
  record(requirement: string, path: string, finding: Finding | undefined): void {
    if (finding === undefined) return;
    if (typeof finding === 'string') this.add(requirement, path, finding);
    else this.add(finding.requirement, path, finding.message);
  }

  get empty(): boolean {
    return this.list.length === 0;
  }
}
