// Certification packages: one signed, deterministic archive of a full run.
//
//   report.json        the run's report, as the run wrote it (transcripts included)
//   manifest.json      what the package claims, in canonical JSON (RFC 8785): the
//                      verdict, coverage and every requirement's status, the tool,
//                      Node, seed and start, the SHA-256 of the suite that ran and
//                      of every other file of the package
//   capabilities.json  the test-control capabilities each role declared
//   policy.json        the Operator Policy Document as the run read it (run.target.facts)
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
 * The Operator Policy Document as the run read it, once, when the target opened
 * (report.json run.target.facts): its answer as it came, or why none came.
 */
function policyOf(report: Report): Record<string, unknown> {
  const operator = report.run.target.roles.operator;
  if (operator === undefined) return { applicable: false, reason: 'the target has no operator role' };
  const fact = report.run.target.facts?.operator?.policy;
  if (fact === undefined) return { applicable: true, observed: false, reason: 'the run read no facts of the target (it could not be opened)' };
  const url = `${operator.base_url ?? ''}${fact.path}`;
  if ('no_answer' in fact) return { applicable: true, observed: false, url, reason: `no answer when the target opened: ${fact.no_answer}` };
  const { path: _path, ...answer } = fact;
  return { applicable: true, observed: true, url, ...answer };
}
