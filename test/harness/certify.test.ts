// certify and verify-package: a real run of the embedded reference packaged and
// verified with real signatures; every kind of tampering refused with the code
// of the check it breaks; a mutant's run packaged as non-conformant evidence; a
// partial run refused; hostile archives read without harm; packaging
// deterministic.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readArchive, writeArchive } from '../../harness/certify/archive.ts';
import { buildPackage, certificationProblems, freshSigningKey, PACKAGE_ENTRIES, privateJwk, readSigningKey, verifyPackage, type SigningKey } from '../../harness/certify/index.ts';
import { certify } from '../../harness/cli/certify.ts';
import { EMBEDDED_REFERENCE_OPTIONS } from '../../harness/target/reference-thread.ts';

import { compare } from '../../harness/cli/compare.ts';
import { verifyPackageCommand } from '../../harness/cli/verify-package.ts';
import { HarnessError } from '../../harness/errors.ts';
import type { Report } from '../../harness/report/model.ts';
import { decodeB64url, encodeB64url } from '../../profile/b64url.ts';
import { canonicalBytes } from '../../profile/jcs.ts';
import { publicJwk } from '../../profile/jwk.ts';
import { PROFILE_ID } from '../../profile/version.ts';
import { cli, REFERENCE_ADAPTER, served } from './hostile/support.ts';
import { captured } from '../support/captured.ts';

/** `text` matched literally in a regular expression. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

ed.hashes.sha512 = sha512;
vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

const work = mkdtempSync(join(tmpdir(), 'cpr-certify-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The embedded reference's package, made once by the first test and tampered with by the others. */
const archive = join(work, 'embedded.tar.gz');
const keyFile = `${archive}.key.jwk`;
let original: Uint8Array;
let key: SigningKey;

describe('certify the embedded reference', () => {
  it('writes one signed package with a generated key, and verify-package accepts it and names the signer', async () => {
    const r = await cli(['certify', '--out', archive, '--report-dir', join(work, 'embedded-run')]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const kid = /signed by key ([A-Za-z0-9_-]{43}), generated for this package/.exec(r.stdout)?.[1];
    expect(kid).toBeDefined();
    expect(r.stdout).toContain(`${keyFile} (mode 0600`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    key = readSigningKey(readFileSync(keyFile, 'utf8'), keyFile);
    expect(key.kid).toBe(kid);
    original = new Uint8Array(readFileSync(archive));

    const entries = readArchive(original);
    expect([...entries.keys()]).toEqual(['capabilities.json', 'manifest.json', 'policy.json', 'report.json', 'signature.jws', 'target.json']);
    expect([...entries.keys()]).toEqual(PACKAGE_ENTRIES);
    const text = (name: string) => Buffer.from(entries.get(name)!).toString('utf8');
    const report = JSON.parse(text('report.json')) as Report;
    const manifest = JSON.parse(text('manifest.json')) as Record<string, any>;
    expect(report.verdict).toBe('conformant');
    expect(manifest.verdict).toBe('conformant');
    expect(manifest.tool.version).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    expect(manifest.seed).toBe(report.run.seed);
    expect(manifest.started_at).toBe(report.run.started_at);
    expect(manifest.coverage).toEqual(report.coverage);
    expect(manifest.requirements).toHaveLength(report.requirements.length);
    expect(manifest.requirements.find((q: { id: string }) => q.id === 'CPP-DEPTH-1')).toMatchObject({ status: 'passed', deciding: true, level: expect.any(String) });
    expect(manifest.suite.files.map((f: { path: string }) => f.path)).toEqual(expect.arrayContaining(['PROFILE.md', 'suites/requirements.yaml', 'profile/jcs.ts', 'suites/cashpack/4.2-issue.yaml']));
    // Every digest is the file's: sha256sum would say the same.
    for (const name of ['capabilities.json', 'policy.json', 'report.json', 'target.json']) {
      expect(manifest.files[name]).toBe(await sha256(entries.get(name)!));
    }
    // manifest.json is its own canonical form: the bytes signed.
    expect(Buffer.from(canonicalBytes(manifest)).equals(Buffer.from(entries.get('manifest.json')!))).toBe(true);
    expect(JSON.parse(text('target.json'))).toEqual(report.run.target);
    expect(JSON.parse(text('capabilities.json')).operator.capabilities).toEqual(report.run.target.roles.operator!.capabilities);
    const policy = JSON.parse(text('policy.json'));
    expect(policy).toMatchObject({ applicable: true, observed: true, status: 200, document: { profile: PROFILE_ID } });
    // Read once when the target opened: the same answer report.json records as the target's facts.
    expect(policy).toMatchObject({ url: expect.stringMatching(new RegExp(`^https://127\\.0\\.0\\.1:\\d+${escapeRegExp(EMBEDDED_REFERENCE_OPTIONS.basePath ?? '')}/\\.well-known/cashpack-policy\\.json$`)), content_type: expect.stringMatching(/^application\/json/) });
    expect(policy.document).toEqual((report.run.target.facts!.operator!.policy as { document: unknown }).document);

    // The signature, checked with another Ed25519 implementation than the verifier's.
    const [header, payload, signature] = text('signature.jws').split('.');
    expect(payload).toBe('');
    const protectedHeader = JSON.parse(Buffer.from(header!, 'base64url').toString('utf8'));
    expect(protectedHeader).toEqual({ alg: 'EdDSA', jwk: { kty: 'OKP', crv: 'Ed25519', x: encodeB64url(key.publicKey), kid }, kid });
    const input = new TextEncoder().encode(`${header}.${encodeB64url(entries.get('manifest.json')!)}`);
    expect(ed.verify(decodeB64url(signature!)!, input, key.publicKey)).toBe(true);

    const unpinned = await cli(['verify-package', archive]);
    expect(unpinned.stderr).toBe('');
    expect(unpinned.status).toBe(0);
    expect(unpinned.stdout).toContain(`signed by key ${kid} (not pinned: pass --key or --kid to require it)`);
    expect(unpinned.stdout).toMatch(/verdict: +conformant/);
    expect(unpinned.stdout).toMatch(/coverage: +\d+ of \d+ deciding requirements/);
    expect(unpinned.stdout).toMatch(/suite digest: +sha256:[0-9a-f]{64} \(\d+ files; the same as this checkout's\)/);
    expect(unpinned.stdout).toContain('target:        embedded reference');
    const byKid = await verifyOutput([archive, `--kid=${kid!}`]);
    expect(byKid.status).toBe(0);
    expect(byKid.stdout).toContain(`signed by key ${kid} (the required key)`);
    expect((await verifyOutput([archive, '--key', keyFile])).stdout).toContain(`signed by key ${kid} (the required key)`);
  });

  it('packages the same report, suite and key as the same bytes: the archive certify wrote', () => {
    const verified = verifyPackage(original);
    const again = buildPackage(verified.report, verified.suite, key);
    expect(Buffer.from(again).equals(Buffer.from(original))).toBe(true);
    expect(Buffer.from(buildPackage(verified.report, verified.suite, key)).equals(Buffer.from(again))).toBe(true);
    // Another key is another package.
    expect(Buffer.from(buildPackage(verified.report, verified.suite, freshSigningKey())).equals(Buffer.from(again))).toBe(false);
  });
});

describe('verify-package refuses a tampered package', () => {
  const entriesOf = () => readArchive(original);
  const repack = (entries: Map<string, Uint8Array>) => writeArchive([...entries].map(([name, data]) => ({ name, data })), 0);
  const manifestOf = (entries: Map<string, Uint8Array>) => JSON.parse(Buffer.from(entries.get('manifest.json')!).toString('utf8')) as Record<string, any>;
  /** The package with its manifest replaced and signed again by `signer` (the original signer unless said). */
  const resigned = (entries: Map<string, Uint8Array>, manifest: unknown, signer: SigningKey = key, headerKey: SigningKey = signer) => {
    const bytes = canonicalBytes(manifest);
    entries.set('manifest.json', bytes);
    entries.set('signature.jws', new TextEncoder().encode(jws(bytes, signer, headerKey)));
    return repack(entries);
  };
  const codeOf = (bytes: Uint8Array, pin?: string) => {
    try {
      verifyPackage(bytes, pin);
      return 'valid';
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessError);
      return `${(error as HarnessError).code}: ${(error as HarnessError).message}`;
    }
  };

  it('a flipped byte in report.json: PACKAGE_DIGEST_MISMATCH; compare refuses it as well', async () => {
    const entries = entriesOf();
    const report = new Uint8Array(entries.get('report.json')!);
    report[1000]! ^= 0x01;
    entries.set('report.json', report);
    expect(codeOf(repack(entries))).toMatch(/^PACKAGE_DIGEST_MISMATCH: report.json has SHA-256 [0-9a-f]{64}, the manifest gives [0-9a-f]{64}/);
    // compare reads a package only once it verifies; the good one is compared by the report it holds.
    const tampered = join(work, 'tampered.tar.gz');
    writeFileSync(tampered, repack(entries));
    // Among several inputs, the one that failed is named, with the check it failed.
    await expect(compare([archive, tampered, '--report-dir', join(work, 'compare-tampered')])).rejects.toThrow(new RegExp(`^${tampered.replace(/[.]/g, '\\.')} failed verification: report.json has SHA-256`));
    await expect(compare([archive, tampered, '--report-dir', join(work, 'compare-tampered')])).rejects.toMatchObject({ code: 'PACKAGE_DIGEST_MISMATCH' });
    // --kid pins the signer of every package compared.
    const stranger = freshSigningKey().kid;
    await expect(compare([archive, `--kid=${stranger}`, '--report-dir', join(work, 'compare-kid')])).rejects.toMatchObject({ code: 'PACKAGE_SIGNER_MISMATCH', message: expect.stringContaining(`${archive} failed verification: `) });
    expect((await quietly(() => compare([archive, `--kid=${key.kid}`, '--report-dir', join(work, 'compare-kid')]))).status).toBe(0);
    const out = join(work, 'compare-package');
    expect((await quietly(() => compare([archive, '--report-dir', out]))).status).toBe(0);
    expect(readFileSync(join(out, 'compare.md'), 'utf8')).toContain('embedded reference');
    // Given by its absolute path, the package is named without it.
    expect(readFileSync(join(out, 'compare.md'), 'utf8')).not.toContain(work);
    expect(JSON.parse(readFileSync(join(out, 'badges', 'embedded-reference.json'), 'utf8')).message).toMatch(/^conformant \d+\/\d+$/);
    // A folder of packages stands for each package in it.
    const folder = join(work, 'packages');
    mkdirSync(folder);
    for (const name of ['a.tar.gz', 'b.tar.gz']) writeFileSync(join(folder, name), original);
    const both = await quietly(() => compare([folder, '--report-dir', join(work, 'compare-folder')]));
    expect(both.status).toBe(0);
    expect(both.stdout).toMatch(/compared 2 implementation/);
    expect(readFileSync(join(work, 'compare-folder', 'compare.md'), 'utf8')).toContain('embedded reference (2)');
  });

  it('a changed verdict in the manifest: PACKAGE_SIGNATURE_INVALID; signed again by the same key: PACKAGE_INCONSISTENT', () => {
    const entries = entriesOf();
    const text = Buffer.from(entries.get('manifest.json')!).toString('utf8');
    expect(text).toContain('"verdict":"conformant"');
    entries.set('manifest.json', new TextEncoder().encode(text.replace('"verdict":"conformant"', '"verdict":"non-conformant"')));
    expect(codeOf(repack(entries))).toMatch(/^PACKAGE_SIGNATURE_INVALID: .*does not match manifest.json/);

    const manifest = manifestOf(entriesOf());
    expect(codeOf(resigned(entriesOf(), { ...manifest, verdict: 'non-conformant' }), key.kid)).toBe('PACKAGE_INCONSISTENT: the manifest disagrees with report.json: verdict is "non-conformant" in the manifest, "conformant" in report.json');
    const requirements = manifest.requirements.map((q: { id: string }) => (q.id === 'CPP-DEPTH-1' ? { ...q, status: 'failed' } : q));
    expect(codeOf(resigned(entriesOf(), { ...manifest, requirements }))).toBe('PACKAGE_INCONSISTENT: the manifest disagrees with report.json: requirement CPP-DEPTH-1 is "failed" in the manifest, passed in report.json');
  });

  it('report.json changed and its digest updated in a manifest signed again: PACKAGE_INCONSISTENT', async () => {
    const entries = entriesOf();
    const report = JSON.parse(Buffer.from(entries.get('report.json')!).toString('utf8')) as Report;
    const changed = { ...report, requirements: report.requirements.map((q) => (q.id === 'CPP-DEPTH-1' ? { ...q, status: 'failed' } : q)) };
    const bytes = new TextEncoder().encode(`${JSON.stringify(changed, null, 2)}\n`);
    entries.set('report.json', bytes);
    const manifest = manifestOf(entries);
    const result = codeOf(resigned(entries, { ...manifest, files: { ...manifest.files, 'report.json': await sha256(bytes) } }));
    expect(result).toMatch(/^PACKAGE_INCONSISTENT: /);
  });

  it('an entry dropped or added: PACKAGE_ENTRIES_INVALID', () => {
    const dropped = entriesOf();
    dropped.delete('policy.json');
    expect(codeOf(repack(dropped))).toBe('PACKAGE_ENTRIES_INVALID: missing policy.json');
    const added = entriesOf();
    added.set('transcripts.json', new TextEncoder().encode('{}'));
    expect(codeOf(repack(added))).toBe('PACKAGE_ENTRIES_INVALID: unexpected transcripts.json');
  });

  it("another key's signature: invalid under the original key's header, valid but not the pinned signer under its own", () => {
    const other = freshSigningKey();
    const manifest = manifestOf(entriesOf());
    expect(codeOf(resigned(entriesOf(), manifest, other, key))).toMatch(/^PACKAGE_SIGNATURE_INVALID: signature.jws does not verify: the signature of key /);
    const swapped = resigned(entriesOf(), manifest, other);
    expect(verifyPackage(swapped).signer).toBe(other.kid);
    expect(codeOf(swapped, key.kid)).toBe(`PACKAGE_SIGNER_MISMATCH: the package is signed by key ${other.kid}, not by the required key ${key.kid}`);
    expect(codeOf(original, other.kid)).toMatch(/^PACKAGE_SIGNER_MISMATCH: /);
  });

  it('a package of a run that does not certify, however well signed: NOT_CERTIFICATION_GRADE', () => {
    const { report, suite } = verifyPackage(original);
    const cut: Report = { ...report, run: { ...report.run, incomplete: true } };
    expect(certificationProblems(cut)).toEqual(['the run was cut short (interrupted, or past its time limit)']);
    expect(codeOf(buildPackage(cut, suite, key))).toMatch(/^NOT_CERTIFICATION_GRADE: the packaged run does not certify its target: the run was cut short/);
    const untested: Report = { ...report, verdict: 'incomplete', requirements: report.requirements.map((q) => (q.id === 'CPP-DEPTH-1' ? { ...q, status: 'skipped' } : q)) };
    expect(certificationProblems(untested)).toEqual(['the verdict is incomplete', '1 deciding requirement(s) not exercised: CPP-DEPTH-1']);
  });

  it('a non-conformant run is evidence whatever else it did not exercise: a fault that also broke setups and errored a test is packaged', () => {
    const { report, suite } = verifyPackage(original);
    const evidence: Report = {
      ...report,
      verdict: 'non-conformant',
      requirements: report.requirements.map((q) => (q.id === 'CPP-BAL-1' ? { ...q, status: 'failed' } : q.id === 'PRF-ERR-1' || q.id === 'CPP-LIM-1' ? { ...q, status: 'error' } : q)),
      errors: [{ code: 'HARNESS_TARGET_UNREACHABLE', message: '3 test(s) were not run' }],
    };
    expect(certificationProblems(evidence)).toEqual([]);
    const verified = verifyPackage(buildPackage(evidence, suite, key));
    expect(verified.report.verdict).toBe('non-conformant');
    // Cut short, it is no evidence of a run: the user stopped it.
    expect(certificationProblems({ ...evidence, run: { ...evidence.run, incomplete: true } })).toEqual(['the run was cut short (interrupted, or past its time limit)']);
  });

  it('the manifest records why a requirement is not applicable, spec or policy', () => {
    const { report, suite } = verifyPackage(original);
    const vacuous: Report = { ...report, requirements: report.requirements.map((q) => (q.id === 'CPP-LIM-1' ? { ...q, status: 'not-applicable', basis: 'policy', reason: 'CPP-LIM-002: not-applicable (max_amount is the largest amount there is)' } : q)) };
    const entries = readArchive(buildPackage(vacuous, suite, key));
    const manifest = JSON.parse(new TextDecoder().decode(entries.get('manifest.json')!)) as { requirements: { id: string; basis?: string; reason?: string }[] };
    expect(manifest.requirements.find((q) => q.id === 'CPP-LIM-1')).toMatchObject({ basis: 'policy', reason: expect.stringMatching(/largest amount/) });
    expect(manifest.requirements.find((q) => q.id === 'CPP-ISS-1')!.basis).toBeUndefined();
  });

  it('says so on the command line: exit 2, the code, a hint', async () => {
    const digest = entriesOf();
    digest.get('target.json')![3]! ^= 0x20;
    const dropped = entriesOf();
    dropped.delete('signature.jws');
    writeFileSync(join(work, 'digest.tar.gz'), repack(digest));
    writeFileSync(join(work, 'dropped.tar.gz'), repack(dropped));
    const r = await cli(['verify-package', join(work, 'digest.tar.gz')]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^cpr-conformance: PACKAGE_DIGEST_MISMATCH: target.json has SHA-256 .+\n {2}hint: \S/);
    expect(r.stdout).toBe('');
    // The command throws the code; the command line turns any such error into exit 2 and these lines.
    await expect(verifyOutput([join(work, 'dropped.tar.gz')])).rejects.toMatchObject({ code: 'PACKAGE_ENTRIES_INVALID', hint: expect.stringContaining('signature.jws') });
    await expect(verifyOutput([archive, `--kid=${freshSigningKey().kid}`])).rejects.toMatchObject({ code: 'PACKAGE_SIGNER_MISMATCH' });
  });
});

describe('verify-package reads a hostile archive without harm', () => {
  const unreadable = (bytes: Uint8Array) => {
    try {
      verifyPackage(bytes);
    } catch (error) {
      expect(error).toBeInstanceOf(HarnessError);
      expect((error as HarnessError).code).toBe('PACKAGE_UNREADABLE');
      return (error as HarnessError).message;
    }
    throw new Error('accepted');
  };

  it.each([
    ['a symbolic link', [{ name: 'report.json', type: '2', linkname: '/etc/passwd' }], /entry "report.json" is a symbolic link/],
    ['a hard link', [{ name: 'report.json', type: '1', linkname: 'manifest.json' }], /is a hard link/],
    ['a directory', [{ name: 'transcripts', type: '5' }], /is a directory/],
    ['a pax header', [{ name: 'PaxHeader', type: 'x', data: '30 path=../../etc/cron.d/x\n' }], /extended \(pax\) header/],
    ['a parent-directory name', [{ name: '../report.json' }], /is not a plain file name/],
    ['an absolute name', [{ name: '/tmp/report.json' }], /is not a plain file name/],
    ['a name in a directory', [{ name: 'a/report.json' }], /is not a plain file name/],
    ['a path prefix', [{ name: 'report.json', prefix: '../..' }], /path prefix/],
    ['an entry larger than the archive', [{ name: 'report.json', size: 0o77777777777 }], /claims \d+ bytes, more than the archive holds/],
    ['a damaged header', [{ name: 'report.json', badChecksum: true }], /checksum does not match/],
    ['a name twice', [{ name: 'report.json' }, { name: 'report.json' }], /appears twice/],
  ] as const)('%s', (_what, entries, message) => {
    expect(unreadable(tarGz(entries))).toMatch(message);
  });

  it('data after the end, no end, not gzip, a damaged stream, too much content', () => {
    const tar = gunzipSync(tarGz([{ name: 'report.json' }]));
    const after = Buffer.concat([tar, Buffer.alloc(512, 0x41)]);
    expect(unreadable(gzipSync(after))).toMatch(/data follows the end/);
    expect(unreadable(gzipSync(tar.subarray(0, 1024)))).toMatch(/no end marker/);
    expect(unreadable(new TextEncoder().encode('{"verdict":"conformant"}'))).toMatch(/not gzip-compressed/);
    expect(unreadable(original.subarray(0, original.length / 2))).toMatch(/gzip stream is damaged/);
    // 257 MiB of zeros in a few hundred KiB (gzip members, one MiB each): never inflated past the limit.
    const bomb = Buffer.concat(Array<Buffer>(257).fill(gzipSync(Buffer.alloc(1024 * 1024))));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(unreadable(bomb)).toMatch(/more than 256 MiB uncompressed/);
  });

  it('a manifest signed by anyone but not a manifest: PACKAGE_UNREADABLE, no crash', () => {
    const entries = readArchive(original);
    for (const manifest of [[], null, 'x', { format: 'cpr-conformance certification package 1' }, { format: 'cpr-conformance certification package 1', files: {}, suite: { digest: 'x', files: 3 } }]) {
      const bytes = canonicalBytes(manifest);
      const signer = freshSigningKey();
      entries.set('manifest.json', bytes);
      entries.set('signature.jws', new TextEncoder().encode(jws(bytes, signer, signer)));
      expect(unreadable(writeArchive([...entries].map(([name, data]) => ({ name, data })), 0))).toMatch(/manifest.json is not a certification manifest/);
    }
  });
});

describe.concurrent('certify against served targets', () => {
  const mutant = served('--mutant', 'payee-request-id-reused');
  const noControl = served('--no-control');

  it('packages a mutant as non-conformant evidence (exit 1); verify-package says so (exit 1)', async () => {
    const facts = await mutant;
    const targetFile = join(work, 'mutant.yaml');
    const tls = ['  tls:', `    ca_file: ${facts.ca_file}`];
    writeFileSync(
      targetFile,
      ['name: payee mutant', 'payee:', '  adapter: http', `  base_url: ${facts.url}`, ...tls, 'operator:', '  adapter: http', `  base_url: ${facts.url}`, ...tls, 'paying_app:', '  adapter: module', `  module: ${REFERENCE_ADAPTER}`, ...tls, ''].join('\n'),
    );
    const signer = freshSigningKey();
    const signerFile = join(work, 'signer.jwk');
    writeFileSync(signerFile, JSON.stringify(privateJwk(signer)));
    const out = join(work, 'mutant.tar.gz');
    const r = await quietly(() => certify(['--target', targetFile, '--key', signerFile, '--out', out, '--report-dir', join(work, 'mutant-run')]));
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/verdict: non-conformant/);
    expect(r.stdout).toContain(`signed by key ${signer.kid} (${signerFile})`);
    expect(existsSync(`${out}.key.jwk`)).toBe(false);
    const { report } = verifyPackage(new Uint8Array(readFileSync(out)), signer.kid);
    expect(report.verdict).toBe('non-conformant');
    expect(report.requirements.find((q) => q.id === 'CPR-ID-1')!.status).toBe('failed');
    expect(report.run.target.name).toBe('payee mutant');

    const public_ = join(work, 'signer.public.jwk');
    const { kty, crv, x } = publicJwk(signer.publicKey);
    writeFileSync(public_, JSON.stringify({ kty, crv, x }));
    const v = await cli(['verify-package', out, '--key', public_]);
    expect(v.status, v.stderr).toBe(1);
    expect(v.stdout).toMatch(/verdict: +non-conformant/);
    expect(v.stdout).toContain('the target is NOT conformant');
    expect(v.stdout).toContain(`signed by key ${signer.kid} (the required key)`);
  });

  it('refuses a run that leaves deciding requirements untested: exit 2, NOT_CERTIFICATION_GRADE, no archive', async () => {
    const facts = await noControl;
    const out = join(work, 'partial.tar.gz');
    const reports = join(work, 'partial-run');
    const r = await cli(['certify', '--target', facts.url, '--ca', facts.ca_file, '--out', out, '--report-dir', reports]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^cpr-conformance: NOT_CERTIFICATION_GRADE: no certification package written: the verdict is incomplete; \d+ deciding requirement\(s\) not exercised: /);
    expect(r.stderr).toMatch(/\n  hint: the run's reports are in .*partial-run/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.key.jwk`)).toBe(false);
    // The run's own reports are written all the same.
    expect(existsSync(join(reports, 'report.json'))).toBe(true);
  });
});

describe('the command lines', () => {
  it.each([
    ['--only', 'TOK-'],
    ['--role', 'payee'],
    ['--shard', '1/2'],
    ['--baseline', 'x.yaml'],
    ['--allow-partial'],
    ['--profile-advisory'],
    ['--no-properties'],
  ])('certify refuses %s: a certification is of everything', async (...args) => {
    await expect(certify(args)).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringMatching(new RegExp(`^certify takes no ${args[0]}: .*a certification is of the whole suite`)) });
  });

  it('certify of a target that names no role is CONFIG_INVALID, before anything is run or signed', async () => {
    const empty = join(work, 'no-role.yaml');
    writeFileSync(empty, 'name: templated\n');
    await expect(certify(['--target', empty, '--out', join(work, 'never.tar.gz')])).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringMatching(/at least one role to test/) });
    expect(existsSync(join(work, 'never.tar.gz'))).toBe(false);
  });

  it('certify reads its key before running: a public key is CONFIG_INVALID', async () => {
    const file = join(work, 'public-only.jwk');
    const { kty, crv, x } = publicJwk(freshSigningKey().publicKey);
    writeFileSync(file, JSON.stringify({ kty, crv, x }));
    await expect(certify(['--key', file])).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringMatching(/has no private key/) });
    const wrong = join(work, 'mismatched.jwk');
    writeFileSync(wrong, JSON.stringify({ ...privateJwk(freshSigningKey()), x }));
    await expect(certify(['--key', wrong])).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringMatching(/x is not the public key of d/) });
  });

  it('verify-package takes one file, and --key or --kid', async () => {
    await expect(verifyPackageCommand([])).rejects.toMatchObject({ code: 'USAGE_ERROR' });
    await expect(verifyPackageCommand(['a', 'b'])).rejects.toMatchObject({ code: 'USAGE_ERROR' });
    await expect(verifyPackageCommand(['a', '--kid', 'short'])).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringMatching(/RFC 7638 thumbprint/) });
    await expect(verifyPackageCommand([join(work, 'missing.tar.gz')])).rejects.toMatchObject({ code: 'USAGE_ERROR', message: expect.stringMatching(/cannot read/) });
    await expect(verifyPackageCommand([work])).rejects.toMatchObject({ code: 'PACKAGE_UNREADABLE', message: expect.stringMatching(/not a regular file/) });
  });

  it('both print their help', async () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await certify(['--help'])).toBe(0);
      expect(await verifyPackageCommand(['--help'])).toBe(0);
      const [certifyHelp, verifyHelp] = write.mock.calls.map((c) => String(c[0]));
      expect(certifyHelp).toMatch(/^Usage: cpr-conformance certify/);
      for (const flag of ['--target', '--out', '--key', '--insecure', '--request-timeout']) expect(certifyHelp).toContain(flag);
      expect(verifyHelp).toMatch(/^Usage: cpr-conformance verify-package FILE/);
      for (const flag of ['--key', '--kid', 'PACKAGE_SIGNATURE_INVALID', 'NOT_CERTIFICATION_GRADE']) expect(verifyHelp).toContain(flag);
    } finally {
      write.mockRestore();
    }
  });
});

// ---------------------------------------------------------------- helpers

/** A command run in this process, its output kept: what it returned and printed. */
async function quietly(command: () => Promise<number>): Promise<{ status: number; stdout: string }> {
  const { code, stdout } = await captured(command);
  return { status: code, stdout };
}

function verifyOutput(argv: string[]): Promise<{ status: number; stdout: string }> {
  return quietly(() => verifyPackageCommand(argv));
}

async function sha256(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

/** A detached EdDSA JWS over `payload`, signed by `signer`, its header naming `headerKey`: written here apart from the package code. */
function jws(payload: Uint8Array, signer: SigningKey, headerKey: SigningKey): string {
  const header = encodeB64url(canonicalBytes({ alg: 'EdDSA', jwk: publicJwk(headerKey.publicKey), kid: headerKey.kid }));
  return `${header}..${encodeB64url(ed.sign(new TextEncoder().encode(`${header}.${encodeB64url(payload)}`), signer.seed))}`;
}

interface RawEntry {
  readonly name: string;
  readonly type?: string;
  readonly linkname?: string;
  readonly prefix?: string;
  readonly data?: string;
  /** The size the header claims (default: the data's). */
  readonly size?: number;
  readonly badChecksum?: boolean;
}

/** A gzip'd ustar archive written field by field, to say what the package writer never would. */
function tarGz(entries: readonly RawEntry[]): Uint8Array {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.data ?? '{}');
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, 'latin1');
    h.write('0000644\0', 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${(e.size ?? data.length).toString(8).padStart(11, '0')}\0`, 124);
    h.write('00000000000\0', 136);
    h.write(e.type ?? '0', 156);
    h.write(e.linkname ?? '', 157);
    h.write('ustar\0', 257);
    h.write('00', 263);
    h.write(e.prefix ?? '', 345);
    h.fill(0x20, 148, 156);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${(sum + (e.badChecksum ? 1 : 0)).toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}
