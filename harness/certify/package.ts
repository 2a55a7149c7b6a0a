// Certification packages: one signed, deterministic archive of a full run.
//
//   report.json        the run's report, as the run wrote it (transcripts included)
//   manifest.json      what the package claims, in canonical JSON (RFC 8785): the
//                      verdict, coverage and every requirement's status, the tool,
//                      Node, seed and start, the SHA-256 of the suite that ran and
//                      of every other file of the package
//   capabilities.json  the test-control capabilities each role declared
//   policy.json        the Operator Policy Document as the run observed it
//   target.json        the target as the report describes it (no secret)
//   signature.jws      a detached JWS (RFC 7515 Appendix F), EdDSA (RFC 8037),
//                      over manifest.json's bytes; its protected header carries
//                      the public key (jwk) and kid, the key's RFC 7638 thumbprint
//
// Everything but the suite digest derives from report.json, so a verifier
// rebuilds it and compares: the manifest and the files must be exactly what the
// report implies. Building is pure: the same report, suite digest and key give
// the same bytes.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { decodeB64url, decodeB64urlFixed, encodeB64url } from '../../profile/b64url.ts';
import { generateKeyPair, verifyStrict } from '../../profile/ed25519.ts';
import { canonicalBytes, canonicalJson } from '../../profile/jcs.ts';
import { jwkThumbprint, publicJwk, readJwk } from '../../profile/jwk.ts';
import { HarnessError } from '../errors.ts';
import { reportJson, reportProblems } from '../report/json.ts';
import { UNTESTED, type Report } from '../report/model.ts';
import { PROJECT_ROOT } from '../scenarios/load.ts';
import { readArchive, writeArchive } from './archive.ts';

ed.hashes.sha512 = sha512;

const FORMAT = 'cpr-conformance certification package 2';
const POLICY_PATH = '/.well-known/cashpack-policy.json';
/** The files the manifest gives a digest of; with manifest.json and signature.jws, every entry of a package. */
const DIGESTED = ['capabilities.json', 'policy.json', 'report.json', 'target.json'] as const;
export const PACKAGE_ENTRIES: readonly string[] = [...DIGESTED, 'manifest.json', 'signature.jws'].sort();

/** The suite that ran: a SHA-256 per file and one over them all (`sha256sum FILES | sha256sum`, files sorted by path). */
interface SuiteDigest {
  readonly digest: string;
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
}

export interface SigningKey {
  /** The 32-byte seed (the JWK's d). */
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  /** RFC 7638 thumbprint of the public key. */
  readonly kid: string;
}

interface ManifestRequirement {
  readonly id: string;
  readonly sections: readonly string[];
  readonly level: string;
  readonly roles: readonly string[];
  readonly status: string;
  /** With status not-applicable: whether the spec's condition or the target's policy makes it so, and the tests' reasons. */
  readonly basis?: string;
  readonly reason?: string;
  readonly deciding: boolean;
  readonly tests: readonly string[];
}

interface Manifest {
  readonly format: typeof FORMAT;
  readonly tool: { readonly name: 'cpr-conformance'; readonly version: string; readonly profile: string; readonly spec_versions: Report['run']['spec_versions'] };
  readonly node_version: string;
  readonly started_at: string;
  readonly duration_ms: number;
  readonly seed: number;
  readonly strict: boolean;
  readonly target: { readonly name: string; readonly embedded: boolean; readonly roles: readonly string[] };
  readonly verdict: Report['verdict'];
  readonly coverage: Report['coverage'];
  readonly summary: Report['summary'];
  readonly suite: SuiteDigest;
  /** SHA-256 (hex) of each other file of the package. */
  readonly files: Readonly<Record<(typeof DIGESTED)[number], string>>;
  readonly requirements: readonly ManifestRequirement[];
}

interface VerifiedPackage {
  readonly report: Report;
  readonly suite: SuiteDigest;
  /** The signer's kid. */
  readonly signer: string;
}

// ---------------------------------------------------------------- the suite

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

function combinedDigest(files: SuiteDigest['files']): string {
  return sha256Hex(utf8(files.map((f) => `${f.sha256}  ${f.path}\n`).join('')));
}

function filesUnder(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((p) => `${dir}/${p.split('\\').join('/')}`)
    .filter((p) => statSync(join(root, p)).isFile());
}

// ---------------------------------------------------------------- certification grade

/**
 * Why a report does not certify its target; empty when it does. A
 * non-conformant run is evidence whatever else it did not exercise: an
 * observed failure of a deciding requirement stands, and its coverage says
 * what was not exercised. A conformant claim needs everything exercised.
 */
export function certificationProblems(report: Report): string[] {
  const problems: string[] = [];
  if (report.verdict === 'incomplete' || report.verdict === 'error') problems.push(`the verdict is ${report.verdict}`);
  if (report.run.incomplete) problems.push('the run was cut short (interrupted, or past its time limit)');
  if (report.verdict !== 'non-conformant') {
    if (report.errors.length > 0) problems.push(`the run had harness errors (${[...new Set(report.errors.map((e) => e.code))].join(', ')})`);
    const untested = report.requirements.filter((r) => r.deciding && UNTESTED.includes(r.status)).map((r) => r.id);
    if (untested.length > 0) problems.push(`${untested.length} deciding requirement(s) not exercised: ${untested.slice(0, 8).join(', ')}${untested.length > 8 ? ', ...' : ''}`);
  }
  const run = report.run;
  const narrowed = [
    ...(run.selection.only.length > 0 ? ['--only'] : []),
    ...(run.selection.roles.length > 0 ? ['--role'] : []),
    ...(run.shard !== undefined ? ['--shard'] : []),
    ...(run.baseline !== undefined ? ['--baseline'] : []),
    ...(run.profile_advisory ? ['--profile-advisory'] : []),
    ...(run.allow_partial ? ['--allow-partial'] : []),
  ];
  if (narrowed.length > 0) problems.push(`the run was narrowed or relaxed (${narrowed.join(', ')})`);
  return problems;
}

// ---------------------------------------------------------------- building

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

function derivedFiles(report: Report): Record<(typeof DIGESTED)[number], Uint8Array> {
  return {
    'capabilities.json': jsonFile(capabilitiesOf(report)),
    'policy.json': jsonFile(policyOf(report)),
    'report.json': utf8(reportJson(report)),
    'target.json': jsonFile(report.run.target),
  };
}

function digestsOf(files: Record<(typeof DIGESTED)[number], Uint8Array>): Manifest['files'] {
  return Object.fromEntries(DIGESTED.map((name) => [name, sha256Hex(files[name])])) as Manifest['files'];
}

function manifestOf(report: Report, suite: SuiteDigest, files: Manifest['files']): Manifest {
  const run = report.run;
  return {
    format: FORMAT,
    tool: { name: 'cpr-conformance', version: run.suite_version, profile: run.profile_version, spec_versions: run.spec_versions },
    node_version: run.node_version,
    started_at: run.started_at,
    duration_ms: run.duration_ms,
    seed: run.seed,
    strict: run.strict,
    target: { name: run.target.name, embedded: run.target.embedded, roles: Object.keys(run.target.roles) },
    verdict: report.verdict,
    coverage: report.coverage,
    summary: report.summary,
    suite,
    files,
    requirements: report.requirements.map((r) => ({
      id: r.id,
      sections: r.sections,
      level: r.level,
      roles: r.roles,
      status: r.status,
      ...(r.status === 'not-applicable' ? { basis: r.basis ?? 'spec', reason: r.reason ?? '' } : {}),
      deciding: r.deciding,
      tests: r.tests,
    })),
  };
}

/** Each role's declared test-control capabilities (and why none were found, when discovery said so). */
function capabilitiesOf(report: Report): Record<string, { capabilities: readonly string[]; note?: string }> {
  return Object.fromEntries(
    Object.entries(report.run.target.roles).map(([role, entry]) => [role, { capabilities: entry?.capabilities ?? [], ...(entry?.capabilities_note !== undefined ? { note: entry.capabilities_note } : {}) }]),
  );
}

/**
 * The Operator Policy Document as the run observed it: the operator's first
 * complete 200 answer to GET /.well-known/cashpack-policy.json in the run's
 * transcripts (through the run's own adapter and transport), else its first
 * answer of any kind; with how often it was read and how many different
 * answers came.
 */
function policyOf(report: Report): Record<string, unknown> {
  if (!Object.hasOwn(report.run.target.roles, 'operator')) return { applicable: false, reason: 'the target has no operator role' };
  const reads = report.tests.flatMap((t) =>
    t.transcript.filter((e) => e.role === 'operator' && e.request.method === 'GET' && pathOf(e.request.url) === POLICY_PATH && e.response !== undefined).map((e) => ({ test: t.id, exchange: e })),
  );
  const chosen = reads.find((r) => r.exchange.response!.status === 200 && r.exchange.response!.truncated !== true) ?? reads[0];
  if (chosen === undefined) return { applicable: true, observed: false, reason: `no test of the run read ${POLICY_PATH}` };
  const response = chosen.exchange.response!;
  const body = response.body ?? '';
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    document = undefined;
  }
  const contentType = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return {
    applicable: true,
    observed: true,
    url: chosen.exchange.request.url,
    test: chosen.test,
    status: response.status,
    ...(contentType !== undefined ? { content_type: contentType } : {}),
    ...(document !== undefined ? { document } : { body }),
    ...(response.truncated ? { truncated: true } : {}),
    reads: reads.length,
    distinct_answers: new Set(reads.map((r) => `${r.exchange.response!.status} ${r.exchange.response!.body ?? ''}`)).size,
  };
}

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://in-process.invalid').pathname;
  } catch {
    return url;
  }
}

// ---------------------------------------------------------------- keys and signatures

/** A fresh random signing key. */
export function freshSigningKey(): SigningKey {
  return signingKeyOf(generateKeyPair().secretKey);
}

function signingKeyOf(seed: Uint8Array): SigningKey {
  const publicKey = ed.getPublicKey(seed);
  return { seed: Uint8Array.from(seed), publicKey, kid: publicJwk(publicKey).kid };
}

/** The private JWK of a key, as --key reads it and as certify writes a generated one. */
export function privateJwk(key: SigningKey): Record<string, string> {
  const { kty, crv, x, kid } = publicJwk(key.publicKey);
  return { kty, crv, x, d: encodeB64url(key.seed), kid };
}

/** A signing key from a private OKP Ed25519 JWK (d and x; kid, when given, its thumbprint). Throws CONFIG_INVALID naming `file`. */
export function readSigningKey(text: string, file: string): SigningKey {
  const jwk = okpJwk(text, file);
  const seed = decodeB64urlFixed(jwk['d'], 32);
  if (seed === undefined) throw keyError(file, 'it has no private key: d must be the strict base64url of a 32-byte Ed25519 seed');
  const key = signingKeyOf(seed);
  if (jwk['x'] !== undefined && jwk['x'] !== encodeB64url(key.publicKey)) throw keyError(file, 'x is not the public key of d');
  if (jwk['kid'] !== undefined && jwk['kid'] !== key.kid) throw keyError(file, `kid is not the RFC 7638 thumbprint of the key (${key.kid})`);
  return key;
}

/** The kid (thumbprint) of a public OKP Ed25519 JWK (a private one serves too: only x is read). Throws CONFIG_INVALID naming `file`. */
export function readPublicKid(text: string, file: string): string {
  const jwk = okpJwk(text, file);
  if (decodeB64urlFixed(jwk['x'], 32) === undefined) throw keyError(file, 'x must be the strict base64url of a 32-byte Ed25519 public key');
  const kid = jwkThumbprint(jwk['x'] as string);
  if (jwk['kid'] !== undefined && jwk['kid'] !== kid) throw keyError(file, `kid is not the RFC 7638 thumbprint of the key (${kid})`);
  return kid;
}

function okpJwk(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw keyError(file, `it is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw keyError(file, 'a JWK is a JSON object');
  const jwk = value as Record<string, unknown>;
  if (jwk['kty'] !== 'OKP' || jwk['crv'] !== 'Ed25519') throw keyError(file, 'kty must be "OKP" and crv "Ed25519"');
  if (jwk['alg'] !== undefined && jwk['alg'] !== 'EdDSA') throw keyError(file, 'alg, when given, must be "EdDSA"');
  return jwk;
}

function keyError(file: string, reason: string): HarnessError {
  return new HarnessError('CONFIG_INVALID', `the key file ${file} is not an Ed25519 JWK: ${reason}`, 'give an OKP JWK: {"kty":"OKP","crv":"Ed25519","x":"...","d":"..."} (certify writes one beside a package it signs with a generated key)');
}

/** RFC 7515 Appendix F: the compact serialization with the payload left out. */
function detachedJws(payload: Uint8Array, key: SigningKey): string {
  const header = encodeB64url(canonicalBytes({ alg: 'EdDSA', jwk: publicJwk(key.publicKey), kid: key.kid }));
  const signature = ed.sign(utf8(`${header}.${encodeB64url(payload)}`), key.seed);
  return `${header}..${encodeB64url(signature)}`;
}

/** Verifies a detached JWS over `payload` with the key its header carries (strict Ed25519); the signer's kid. */
function verifyDetachedJws(jws: string, payload: Uint8Array): string {
  const bad = (why: string) => new HarnessError('PACKAGE_SIGNATURE_INVALID', `signature.jws does not verify: ${why}`);
  const parts = jws.split('.');
  if (parts.length !== 3 || parts[1] !== '') throw bad('it is not a detached JWS in compact form (header..signature)');
  const [encodedHeader, , encodedSignature] = parts as [string, string, string];
  const headerBytes = decodeB64url(encodedHeader);
  if (headerBytes === undefined) throw bad('the protected header is not strict base64url');
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(headerBytes));
  } catch {
    throw bad('the protected header is not JSON');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw bad('the protected header is not a JSON object');
  const h = header as Record<string, unknown>;
  const extra = Object.keys(h).filter((k) => !['alg', 'jwk', 'kid'].includes(k));
  if (extra.length > 0) throw bad(`the protected header has member(s) a package never uses: ${extra.join(', ')}`);
  if (h['alg'] !== 'EdDSA') throw bad(`alg is ${JSON.stringify(h['alg'])}, not "EdDSA"`);
  const jwk = readJwk(h['jwk']);
  if (!jwk.ok) throw bad(`the header's jwk: ${jwk.reason}`);
  if (h['kid'] !== jwk.kid) throw bad("the header's kid is not the thumbprint of its jwk");
  const signature = decodeB64urlFixed(encodedSignature, 64);
  if (signature === undefined) throw bad('the signature is not the strict base64url of 64 bytes');
  if (!verifyStrict(jwk.publicKey, utf8(`${encodedHeader}.${encodeB64url(payload)}`), signature)) {
    throw bad(`the signature of key ${jwk.kid} does not match manifest.json: the manifest or the signature was changed after signing`);
  }
  return jwk.kid;
}

// ---------------------------------------------------------------- verifying

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

// ---------------------------------------------------------------- bytes

function jsonFile(value: unknown): Uint8Array {
  return utf8(`${JSON.stringify(value, null, 2)}\n`);
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function byBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
