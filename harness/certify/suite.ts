// The digest of the suite that ran: the files that decide what a run checks.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../scenarios/load.ts';
import { byBytes, sha256Hex, utf8 } from './bytes.ts';

/** The suite that ran: a SHA-256 per file and one over them all (`sha256sum FILES | sha256sum`, files sorted by path). */
export interface SuiteDigest {
  readonly digest: string;
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
}

/**
 * The files that decide what a run checks: suites/ (scenarios, registry,
 * schemas), profile/, PROFILE.md, and the harness that judged (harness/: its
 * checks, engine and verdict rules), so two packages with one digest were
 * judged by the same code whatever version number it carried.
 */
export function suiteDigest(root: string = PROJECT_ROOT): SuiteDigest {
  const paths = ['PROFILE.md', ...filesUnder(root, 'suites').filter((p) => /\.(ya?ml|json)$/.test(p)), ...filesUnder(root, 'profile'), ...filesUnder(root, 'harness').filter((p) => /\.(ts|json)$/.test(p))];
  const files = [...new Set(paths)].sort(byBytes).map((path) => ({ path, sha256: sha256Hex(readFileSync(join(root, path))) }));
  return { digest: combinedDigest(files), files };
}

export function combinedDigest(files: SuiteDigest['files']): string {
  return sha256Hex(utf8(files.map((f) => `${f.sha256}  ${f.path}\n`).join('')));
}

function filesUnder(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((p) => `${dir}/${p.split('\\').join('/')}`)
    .filter((p) => statSync(join(root, p)).isFile());
}
