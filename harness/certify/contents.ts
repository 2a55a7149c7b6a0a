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

import { reportJson } from '../report/json.ts';
import type { Report } from '../report/model.ts';
import { jsonFile, sha256Hex, utf8 } from './bytes.ts';
import type { SuiteDigest } from './suite.ts';

export const FORMAT = 'cpr-conformance certification package 2';

const POLICY_PATH = '/.well-known/cashpack-policy.json';

/** The files the manifest gives a digest of; with manifest.json and signature.jws, every entry of a package. */
export const DIGESTED = ['capabilities.json', 'policy.json', 'report.json', 'target.json'] as const;

export const PACKAGE_ENTRIES: readonly string[] = [...DIGESTED, 'manifest.json', 'signature.jws'].sort();

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

export interface Manifest {
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

export function derivedFiles(report: Report): Record<(typeof DIGESTED)[number], Uint8Array> {
  return {
    'capabilities.json': jsonFile(capabilitiesOf(report)),
    'policy.json': jsonFile(policyOf(report)),
    'report.json': utf8(reportJson(report)),
    'target.json': jsonFile(report.run.target),
  };
}

export function digestsOf(files: Record<(typeof DIGESTED)[number], Uint8Array>): Manifest['files'] {
  return Object.fromEntries(DIGESTED.map((name) => [name, sha256Hex(files[name])])) as Manifest['files'];
}

export function manifestOf(report: Report, suite: SuiteDigest, files: Manifest['files']): Manifest {
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
