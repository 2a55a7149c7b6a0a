// From the run's --target choice to an opened, reachable target. Its config is
// what workers reopen; the main process keeps the embedded reference running.
import { loadTargetFile } from '../target/load.ts';
import { preflight } from '../target/preflight.ts';
import { embeddedTarget, openTarget, targetFromUrl, type Target } from '../target/target.ts';
import { readFileSync } from 'node:fs';
import { HarnessError } from '../cli/errors.ts';
import type { TargetDescription } from '../report/model.ts';
import type { TargetConfig } from '../target/config.ts';
import type { Terminal } from './terminal.ts';

export type TargetChoice =
  | { readonly kind: 'embedded' }
  | { readonly kind: 'url'; readonly url: string; readonly caFile?: string; readonly insecure: boolean }
  | { readonly kind: 'file'; readonly path: string };

export interface ResolvedTarget {
  readonly config: TargetConfig;
  readonly description: TargetDescription;
  close(): Promise<void>;
}

export async function resolveTarget(choice: TargetChoice, terminal: Terminal): Promise<ResolvedTarget> {
  const target = await open(choice);
  try {
    // Fails within seconds when a role does not answer (HARNESS_TARGET_UNREACHABLE).
    await preflight(target);
  } catch (error) {
    await target.close();
    throw error;
  }
  if (target.description.roles && Object.values(target.description.roles).some((r) => r?.tls === 'insecure')) {
    terminal.line('warning: TLS verification is off for this target (--insecure); the report records it');
  }
  return { config: target.config, description: target.description, close: () => target.close() };
}

async function open(choice: TargetChoice): Promise<Target> {
  switch (choice.kind) {
    case 'embedded':
      return embeddedTarget();
    case 'url':
      return targetFromUrl(choice.url, { insecure: choice.insecure, ...(choice.caFile !== undefined ? { ca: readCa(choice.caFile), caFile: choice.caFile } : {}) });
    case 'file':
      return openTarget(loadTargetFile(choice.path));
  }
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `cannot read --ca ${file}: ${(error as Error).message}`, 'give the PEM file of the CA that issued the target certificate');
  }
}
