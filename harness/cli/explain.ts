// `cpr-conformance explain ID`: a requirement (its level, roles, spec sections and
// the spec's own text when the spec is beside the checkout) and the scenarios that
// cover it; or a scenario and what it proves.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRequirement, loadRegistry } from '../../profile/registry.ts';
import { didYouMean } from '../text.ts';
import { PROPERTIES, findProperty } from '../properties/catalogue.ts';
import { flatSteps, loadSuites, PROJECT_ROOT } from '../scenarios/load.ts';
import { optionsHelp, parse, type Declared } from './args.ts';
import { HarnessError } from './errors.ts';
import { ERRORS, isErrorCode, type ErrorScope } from '../errors.ts';
import { PROBLEM_STATUS, SPEC_ERROR_CODES } from '../../profile/problems.ts';
import type { Scenario, Step } from '../scenarios/types.ts';
import { PROFILE_ID, PROFILE_VERSIONS, versionsAfter } from '../../profile/version.ts';

const SCOPE_WORDS: Readonly<Record<ErrorScope, string>> = {
  command: 'a command fails with it, exit 2',
  test: "a test's error_code in report.json",
  run: "a run's errors[] in report.json",
};
import { readReport } from '../report/index.ts';
import { shownOutcome, WARNING_MEANING, reasonText } from '../report/wording.ts';
import { failedCheckLines } from '../report/answer.ts';
import { processIo, type CommandIo } from '../io.ts';

/** explain's options: they parse the command line and write its --help. */
export const EXPLAIN_OPTIONS = {
  report: { type: 'string', value: 'FILE', help: "a run's report.json: also say what that run concluded about ID and why (for a requirement that was not exercised: which tests were skipped, not applicable, errored or not selected, and their reasons)" },
} as const satisfies Readonly<Record<string, Declared>>;

const EXPLAIN_HELP = `Usage: cpr-conformance explain ID [--report FILE]

ID is a requirement ID (TOK-ONCE-1, PRF-ERR-1), a scenario ID (TOK-ONCE-001),
a property ID (PROP-PAYEE-001), one of the spec's ten protocol error codes
(BEARER_MISMATCH: when an Operator answers it, its HTTP status, and the
requirements whose checks expect it), a harness error code
(HARNESS_STEP_FAILED) or a profile identifier (CPP-PROFILE-1.0: what changed
since that version).
For a requirement: its level, roles, spec sections, summary, the spec's text of
those sections (read from ../shared/spec/cpr-cashpack-spec.md beside the
checkout, or the file CPR_SPEC names, when present) and the scenarios that
cover it. For a scenario: its requirements, file and line, and its steps.

Options:
${optionsHelp(EXPLAIN_OPTIONS)}
`;

/** The spec is not part of this repository: it is kept beside the checkout, or wherever CPR_SPEC points. */
function specFile(env: CommandIo['env']): string {
  return env['CPR_SPEC'] || join(PROJECT_ROOT, '..', 'shared', 'spec', 'cpr-cashpack-spec.md');
}

export async function explain(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const values = parse('explain', argv.filter((a, i) => a.startsWith('-') || argv[i - 1] === '--report'), EXPLAIN_OPTIONS);
  const [id, ...rest] = argv.filter((a, i) => !a.startsWith('-') && argv[i - 1] !== '--report');
  if (values.help) {
    io.stdout.write(EXPLAIN_HELP);
    return 0;
  }
  if (id === undefined || rest.length > 0) throw new HarnessError('USAGE_ERROR', 'explain takes exactly one ID', 'see: cpr-conformance explain --help');
  const scenarios = loadSuites().flatMap((s) => s.scenarios);
  const requirement = findRequirement(id);
  const out: string[] = [];
  const version = PROFILE_VERSIONS.find((v) => v.id === id);
  if (isProtocolCode(id)) {
    out.push(...protocolCode(id, scenarios));
  } else if (version) {
    out.push(`${version.id}  (a profile version, ${version.date}; this harness tests ${PROFILE_ID})`, `  ${version.summary}.`);
    const newer = versionsAfter(version.id)!;
    out.push('', newer.length === 0 ? 'nothing changed since: it is the newest version (PROFILE.md §14 "Changes" lists the earlier ones)' : 'changed since (PROFILE.md §14 "Changes"):');
    for (const v of newer) {
      out.push(`  ${v.id} (${v.date})`);
      for (const c of v.changes) out.push(`    ${c.section}: ${c.rule}`, `      built against the earlier text: ${c.change}`);
    }
  } else if (isErrorCode(id)) {
    const entry = ERRORS[id];
    out.push(`${id}  (an error code: ${entry.scopes.map((s) => SCOPE_WORDS[s]).join('; ')})`, `  ${entry.summary}`, `  hint: ${entry.hint}`);
  } else if (requirement) {
    out.push(`${requirement.id}  ${requirement.level}  (${requirement.roles.join(', ')})`, `  ${requirement.summary}`);
    if (requirement.sections.length) out.push(`  spec: ${requirement.sections.join(' ')}`);
    if (requirement.profile_sections?.length) out.push(`  PROFILE.md: ${requirement.profile_sections.join(' ')}`);
    if (requirement.notes) out.push(`  note: ${requirement.notes}`);
    if (requirement.unverifiable) out.push(`  not observable from outside: ${requirement.unverifiable}`);
    const spec = specFile(io.env);
    if (!existsSync(spec) && requirement.sections.length > 0) {
      out.push('', `  (the spec's text is not shown: ${spec} is not there. The spec, cpr-cashpack-spec.md, is not part of this repository: put it beside the checkout in ../shared/spec/ or set CPR_SPEC to its path)`);
    }
    for (const section of requirement.sections) {
      const text = specSection(spec, section);
      if (text) out.push('', `  ${section} of the spec:`, ...text.split('\n').map((l) => `    ${l}`));
    }
    const covering = scenarios.filter((s) => s.requirements.includes(id) || s.steps.some((st) => st.expect.some((c) => c.requirement === id)));
    const properties = PROPERTIES.filter((p) => p.requirements.includes(id));
    out.push('', covering.length + properties.length ? `covered by ${covering.length} scenario(s) and ${properties.length} propert${properties.length === 1 ? 'y' : 'ies'}:` : 'covered by no scenario (uncovered)');
    for (const s of covering) out.push(`  ${s.id}  ${s.title}  (${s.file}:${s.line})`);
    for (const p of properties) out.push(`  ${p.id}  ${p.title}  (property, ${p.defaultRuns} generated cases)`);
  } else if (findProperty(id)) {
    const p = findProperty(id)!;
    out.push(`${p.id}  ${p.level}  ${p.role}  (property)`, `  ${p.title}`, `  proves: ${p.requirements.join(', ')}`, `  ${p.defaultRuns} generated cases per run by default (--property-runs N); reproducible with --seed`);
    if (p.needs.length) out.push(`  needs: ${p.needs.join(', ')}`);
  } else {
    const scenario = scenarios.find((s) => s.id === id);
    if (!scenario) {
      const known = [...loadRegistry().map((r) => r.id), ...scenarios.map((s) => s.id), ...PROPERTIES.map((p) => p.id), ...Object.keys(ERRORS), ...SPEC_ERROR_CODES, ...PROFILE_VERSIONS.map((v) => v.id)];
      throw new HarnessError('USAGE_ERROR', `no requirement, scenario, property, error code or profile version is ${JSON.stringify(id)}${didYouMean(id, known)}`, 'list them with: cpr-conformance list');
    }
    out.push(`${scenario.id}  ${scenario.level}  ${scenario.role}`, `  ${scenario.title}`, `  ${scenario.file}:${scenario.line}`, `  proves: ${scenario.requirements.join(', ')}`);
    if (scenario.needs.length) out.push(`  needs: ${scenario.needs.join(', ')}`);
    if (scenario.info) out.push(`  ${scenario.info.trim()}`);
    out.push('  steps:', ...scenario.steps.map((s) => `    ${s.index + 1}. ${s.action}${s.as ? ` as ${s.as}` : ''}${s.expect.length ? ` — ${s.expect.map((c) => c.name).join(', ')}` : ''}`));
  }
  if (values.report !== undefined) out.push('', ...inReport(id, values.report as string));
  io.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

/** What a run's report says about a requirement or a test, and why. */
function inReport(id: string, file: string): string[] {
  const report = readReport(file);
  const out = [`in ${file} (verdict ${report.verdict}):`];
  // The target's profile version, when it is not the harness's, bears on every result.
  if (report.run.target.profile_notice !== undefined) out.push(`  note: ${report.run.target.profile_notice}`);
  const requirement = report.requirements.find((r) => r.id === id);
  if (requirement) {
    const basis = requirement.basis === undefined ? '' : requirement.basis === 'policy' ? " (by the target's published policy: no gap in coverage)" : " (by the spec's condition: no gap in coverage)";
    out.push(`  ${requirement.id}: ${requirement.status}${basis}${requirement.deciding ? ' (deciding)' : ' (not deciding in that run)'}`);
    if (requirement.reason) out.push(`  why: ${requirement.reason}`);
    if (requirement.status === 'warning') out.push(`  a warning, not a failure: ${WARNING_MEANING}`);
    for (const testId of requirement.tests) {
      const t = report.tests.find((x) => x.id === testId);
      if (t) out.push(`    ${t.id}  ${shownOutcome(t)}${t.basis ? ` (${t.basis})` : ''}${t.error_code ? ` ${t.error_code}` : ''}${t.reason ? `: ${reasonText(t)!.split('\n')[0]!.slice(0, 300)}` : ''}`);
      for (const left of (t?.not_evaluated ?? []).filter((n) => n.requirement === requirement.id)) out.push(`      not evaluated: ${left.check} at step ${left.step ?? '?'}, after ${left.after} saw another answer`);
    }
    return out;
  }
  const test = report.tests.find((t) => t.id === id);
  if (!test) return [...out, `  ${id} is not in that report (the run did not select it)`];
  out.push(`  ${test.id}: ${shownOutcome(test)}${test.error_code ? ` ${test.error_code}` : ''}${test.known_failure ? ' (known failure)' : ''}`);
  if (shownOutcome(test) === 'warning') out.push(`  a warning, not a failure: ${WARNING_MEANING}`);
  if (test.reason) out.push(`  why: ${reasonText(test)}`);
  const checks = failedCheckLines(test);
  if (checks.length > 0) out.push('  failed checks, and what the target answered:', ...checks.map((line) => `    ${line}`));
  out.push(`  rerun: ${test.rerun}`);
  return out;
}

type ProtocolCode = (typeof SPEC_ERROR_CODES)[number];

/** When an Operator answers each of the spec's error codes (spec §7.1), in this project's words. */
const PROTOCOL_MEANING: Readonly<Record<ProtocolCode, string>> = {
  INSUFFICIENT_BALANCE: "the Principal's available balance is below the amount asked for",
  AMOUNT_EXCEEDS_LIMIT: "the amount is above the Operator's configured maximum (max_amount in its policy)",
  INVALID_SIGNATURE: 'a signature of the request (or of the pack it carries) does not verify',
  BEARER_MISMATCH: "the key that signed the request is not the pack's current_bearer_pk",
  CHAIN_DIGEST_MISMATCH: "prev_chain_digest is not the pack's current chain_digest (a stale or forged version of the pack)",
  INSTRUMENT_NOT_ACTIVE: 'the pack is no longer ACTIVE: redeemed, expired or cancelled',
  CHAIN_DEPTH_EXCEEDED: "the renewal chain has reached the Operator's configured maximum depth (max_chain_depth)",
  REDEEMER_NOT_IDENTIFIED: 'the redeemer could not be verified to the identity level the Operator requires',
  DUPLICATE_ID: 'the request_id or renewal_id was seen before: a replay',
  EXPIRY_INVALID: "the requested expiry is outside the Operator's permitted range",
};

function isProtocolCode(id: string): id is ProtocolCode {
  return (SPEC_ERROR_CODES as readonly string[]).includes(id);
}

/** A protocol error code: when it is answered, its status, and the requirements whose checks expect it. */
function protocolCode(code: ProtocolCode, scenarios: readonly Scenario[]): string[] {
  const registry = new Map(loadRegistry().map((r) => [r.id, r]));
  const expecting = new Map<string, Set<string>>();
  for (const scenario of scenarios) {
    for (const check of flatSteps(scenario.steps).flatMap((step) => step.expect)) {
      const expects = check.name === 'problem' ? check.arg === code : check.name === 'all' && JSON.stringify((check.arg as { problem?: unknown } | undefined)?.problem ?? null).includes(`"${code}"`);
      if (!expects) continue;
      for (const requirement of check.requirement !== undefined ? [check.requirement] : scenario.requirements) expecting.set(requirement, (expecting.get(requirement) ?? new Set()).add(scenario.id));
    }
  }
  const out = [
    `${code}  (a protocol error code of spec §7.1, answered by an Operator)`,
    `  when: ${PROTOCOL_MEANING[code]}`,
    `  HTTP status: ${PROBLEM_STATUS[code]}, in an application/problem+json body whose "code" is ${code} (PROFILE.md §11; the status is checked under PRF-ERR-1)`,
    '',
    expecting.size === 0 ? '  no check of the suite expects it' : '  expected by checks of:',
  ];
  for (const [id, tests] of [...expecting].sort(([a], [b]) => a.localeCompare(b))) {
    const requirement = registry.get(id);
    out.push(`    ${id}${requirement ? `  ${requirement.level}  ${requirement.summary}` : ''}`, `      in ${[...tests].sort().join(', ')}`);
  }
  return out;
}

/** The text under a "### 5.1 ..." heading (or "## 5 ...") of the spec, up to the next heading. */
function specSection(spec: string, section: string): string | undefined {
  if (!existsSync(spec)) return undefined;
  const number = section.replace(/^§/, '').split('.').slice(0, 2).join('.');
  const lines = readFileSync(spec, 'utf8').split('\n');
  const start = lines.findIndex((l) => new RegExp(`^#{2,3} ${number.replace('.', '\\.')}[. ]`).test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^#{2,3} /.test(l));
  return lines.slice(start, end < 0 ? undefined : end).join('\n').trim().slice(0, 3000);
}
