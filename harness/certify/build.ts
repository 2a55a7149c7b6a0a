// Building a package: its files, the manifest, the signature, one deterministic archive.
import { canonicalBytes } from '../../profile/jcs.ts';
import type { Report } from '../report/model.ts';
import { writeArchive } from './archive.ts';
import { utf8 } from './bytes.ts';
import { derivedFiles, digestsOf, manifestOf } from './contents.ts';
import { detachedJws } from './jws.ts';
import type { SigningKey } from './keys.ts';
import type { SuiteDigest } from './suite.ts';

/** The package of a certification-grade report, signed with `key`: the same arguments give the same bytes. */
export function buildPackage(report: Report, suite: SuiteDigest, key: SigningKey): Uint8Array {
  const files = derivedFiles(report);
  const manifestBytes = canonicalBytes(manifestOf(report, suite, digestsOf(files)));
  const entries = [...Object.entries(files).map(([name, data]) => ({ name, data })), { name: 'manifest.json', data: manifestBytes }, { name: 'signature.jws', data: utf8(detachedJws(manifestBytes, key)) }];
  return writeArchive(entries, Math.floor(Date.parse(report.run.started_at) / 1000));
}

/** The default file name part for a target: lower case, letters, digits and dashes. */
export function targetSlug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'target'
  );
}
