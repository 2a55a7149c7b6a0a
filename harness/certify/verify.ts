// Verifying a package, in memory: its entries, signature, digests, consistency
// with its report, and the run's grade.
import { canonicalBytes, canonicalJson } from '../../profile/jcs.ts';
import { HarnessError } from '../errors.ts';
import { reportProblems } from '../report/json.ts';
import type { Report } from '../report/model.ts';
import { readArchive } from './archive.ts';
import { sha256Hex } from './bytes.ts';
import { derivedFiles, DIGESTED, digestsOf, FORMAT, manifestOf, PACKAGE_ENTRIES, type Manifest } from './contents.ts';
import { certificationProblems } from './grade.ts';
import { verifyDetachedJws } from './jws.ts';
import { combinedDigest, type SuiteDigest } from './suite.ts';

interface VerifiedPackage {
  readonly report: Report;
  readonly suite: SuiteDigest;
  /** The signer's kid. */
  readonly signer: string;
}

/**
 * Checks a package, in memory: (a) it reads and holds exactly its entries,
 * (b) the signature verifies over the canonical manifest, and the signer is
 * `pinnedKid` when given, (c) every file has the manifest's digest, (d) the
 * manifest and the files are what report.json implies, (e) the run is
 * certification-grade. Throws a HarnessError naming the first check that failed.
 */
export function verifyPackage(bytes: Uint8Array, pinnedKid?: string): VerifiedPackage {
  const entries = readArchive(bytes);
  const names = [...entries.keys()];
  const missing = PACKAGE_ENTRIES.filter((n) => !entries.has(n));
  const extra = names.filter((n) => !PACKAGE_ENTRIES.includes(n)).sort();
  if (missing.length > 0 || extra.length > 0) {
    throw new HarnessError('PACKAGE_ENTRIES_INVALID', [missing.length > 0 ? `missing ${missing.join(', ')}` : '', extra.length > 0 ? `unexpected ${extra.join(', ')}` : ''].filter(Boolean).join('; '));
  }
  const entry = (name: string) => entries.get(name)!;

  const manifestBytes = entry('manifest.json');
  const manifestValue = jsonOf('manifest.json', manifestBytes);
  if (!Buffer.from(canonicalBytes(manifestValue)).equals(manifestBytes)) {
    throw new HarnessError('PACKAGE_SIGNATURE_INVALID', 'manifest.json is not in canonical form (RFC 8785): it is not the bytes the signature covers');
  }
  const signer = verifyDetachedJws(textOf('signature.jws', entry('signature.jws')), manifestBytes);
  if (pinnedKid !== undefined && signer !== pinnedKid) {
    throw new HarnessError('PACKAGE_SIGNER_MISMATCH', `the package is signed by key ${signer}, not by the required key ${pinnedKid}`);
  }
  const manifest = manifestShape(manifestValue);

  for (const name of DIGESTED) {
    const actual = sha256Hex(entry(name));
    if (manifest.files[name] !== actual) throw new HarnessError('PACKAGE_DIGEST_MISMATCH', `${name} has SHA-256 ${actual}, the manifest gives ${String(manifest.files[name])}: it was changed after signing`);
  }

  const reportValue = jsonOf('report.json', entry('report.json'));
  const problems = reportProblems(reportValue);
  if (problems.length > 0) throw new HarnessError('PACKAGE_UNREADABLE', `report.json is not a valid report: ${problems.slice(0, 3).join('; ')}`);
  const report = reportValue as Report;

  const expected = derivedFiles(report);
  for (const name of DIGESTED) {
    if (!Buffer.from(expected[name]).equals(entry(name))) throw new HarnessError('PACKAGE_INCONSISTENT', `${name} is not what report.json implies`);
  }
  if (combinedDigest(manifest.suite.files) !== manifest.suite.digest) throw new HarnessError('PACKAGE_INCONSISTENT', "the manifest's suite digest is not the digest of its suite file list");
  const difference = manifestDifference(manifestOf(report, manifest.suite, digestsOf(expected)), manifestValue as Record<string, unknown>);
  if (difference !== undefined) throw new HarnessError('PACKAGE_INCONSISTENT', `the manifest disagrees with report.json: ${difference}`);

  const grade = certificationProblems(report);
  if (grade.length > 0) throw new HarnessError('NOT_CERTIFICATION_GRADE', `the packaged run does not certify its target: ${grade.join('; ')}`, 'only a complete run of the whole suite certifies; certify refuses to package any other');
  return { report, suite: manifest.suite, signer };
}

/** What verifyPackage needs of a signed manifest before it trusts its shape; the rest is compared with the report. */
function manifestShape(value: unknown): Pick<Manifest, 'files' | 'suite'> {
  const bad = (why: string) => new HarnessError('PACKAGE_UNREADABLE', `manifest.json is not a certification manifest: ${why}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not a JSON object');
  const m = value as Record<string, unknown>;
  if (m['format'] !== FORMAT) throw bad(`format is ${JSON.stringify(m['format'])}, not ${JSON.stringify(FORMAT)}`);
  const files = m['files'];
  if (typeof files !== 'object' || files === null || Array.isArray(files)) throw bad('files is not an object');
  const suite = m['suite'] as Record<string, unknown> | null | undefined;
  const listed = suite?.['files'];
  const hex = (v: unknown) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
  if (typeof suite !== 'object' || suite === null || !hex(suite['digest']) || !Array.isArray(listed)) throw bad('suite lacks its digest or file list');
  if (!listed.every((f: unknown) => typeof f === 'object' && f !== null && typeof (f as Record<string, unknown>)['path'] === 'string' && hex((f as Record<string, unknown>)['sha256']))) {
    throw bad('suite.files holds an entry without a path and a SHA-256');
  }
  const entries = listed as { path: string; sha256: string }[];
  return { files: files as Manifest['files'], suite: { digest: suite['digest'] as string, files: entries.map((f) => ({ path: f.path, sha256: f.sha256 })) } };
}

/** The first member in which a manifest differs from the one the report implies, said for a reader; undefined when equal. */
function manifestDifference(expected: Manifest, actual: Record<string, unknown>): string | undefined {
  const want = JSON.parse(canonicalJson(expected)) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(want), ...Object.keys(actual)])].sort();
  for (const key of keys) {
    if (canonicalJson(want[key] ?? null) === canonicalJson(actual[key] ?? null) && Object.hasOwn(want, key) === Object.hasOwn(actual, key)) continue;
    if (key === 'requirements' && Array.isArray(actual[key])) {
      const rows = actual[key] as unknown[];
      const byId = new Map(rows.map((row) => [String((row as Record<string, unknown> | null)?.['id']), row]));
      for (const row of expected.requirements) {
        const theirs = byId.get(row.id) as Record<string, unknown> | undefined;
        if (theirs === undefined) return `the manifest lacks requirement ${row.id}`;
        if (theirs['status'] !== row.status) return `requirement ${row.id} is ${JSON.stringify(theirs['status'])} in the manifest, ${row.status} in report.json`;
        if (canonicalJson(theirs) !== canonicalJson(row)) return `requirement ${row.id} differs`;
      }
      return rows.length === expected.requirements.length ? 'the manifest lists the requirements in another order than report.json' : `the manifest lists ${rows.length} requirements, report.json ${expected.requirements.length}`;
    }
    if (!Object.hasOwn(actual, key)) return `the manifest lacks ${key}`;
    if (!Object.hasOwn(want, key)) return `the manifest has ${key}, which no manifest has`;
    if (typeof want[key] !== 'object') return `${key} is ${canonicalJson(actual[key])} in the manifest, ${canonicalJson(want[key])} in report.json`;
    return `${key} differs`;
  }
  return undefined;
}

function textOf(name: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HarnessError('PACKAGE_UNREADABLE', `${name} is not UTF-8 text`);
  }
}

function jsonOf(name: string, bytes: Uint8Array): unknown {
  try {
    return JSON.parse(textOf(name, bytes));
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw new HarnessError('PACKAGE_UNREADABLE', `${name} is not JSON: ${(error as Error).message}`);
  }
}
