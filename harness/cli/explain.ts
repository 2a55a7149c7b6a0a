// `cpr-conformance explain ID`: a requirement (its level, roles, spec sections and
// the spec's own text when the spec is beside the checkout) and the scenarios that
// cover it; or a scenario and what it proves.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findRequirement, loadRegistry } from '../../profile/registry.ts';
import { didYouMean } from '../text.ts';
import { PROPERTIES, findProperty } from '../properties/catalogue.ts';
import { loadSuites, PROJECT_ROOT } from '../scenarios/load.ts';
import { parse } from './args.ts';
import { HarnessError } from './errors.ts';
import { ERRORS, isErrorCode, type ErrorScope } from '../errors.ts';
import { PROFILE_ID, PROFILE_VERSIONS, versionsAfter } from '../../profile/version.ts';

const SCOPE_WORDS: Readonly<Record<ErrorScope, string>> = {
  command: 'a command fails with it, exit 2',
  test: "a test's error_code in report.json",
  run: "a run's errors[] in report.json",
};
import { readReport } from '../report/index.ts';
import { atStep, shownOutcome, WARNING_MEANING } from '../report/wording.ts';

const EXPLAIN_HELP = `Usage: cpr-conformance explain ID [--report FILE]

ID is a requirement ID (TOK-ONCE-1, PRF-ERR-1), a scenario ID (TOK-ONCE-001),
a property ID (PROP-PAYEE-001), an error code (HARNESS_STEP_FAILED) or a
profile identifier (CPP-PROFILE-1.0: what changed since that version).
For a requirement: its level, roles, spec sections, summary, the spec's text of
those sections (read from ../shared/spec/cpr-cashpack-spec.md beside the
checkout, or the file CPR_SPEC names, when present) and the scenarios that
cover it. For a scenario: its requirements, file and line, and its steps.

Options:
  --report FILE   a run's report.json: also say what that run concluded about
                  ID and why (for a requirement that was not exercised: which
                  tests were skipped, not applicable, errored or not selected,
                  and their reasons)
  -h, --help      show this help
`;

/** The spec is not part of this repository: it is kept beside the checkout, or wherever CPR_SPEC points. */
const SPEC = process.env['CPR_SPEC'] || join(PROJECT_ROOT, '..', 'shared', 'spec', 'cpr-cashpack-spec.md');

export async function explain(argv: string[]): Promise<number> {
  const values = parse('explain', argv.filter((a, i) => a.startsWith('-') || argv[i - 1] === '--report'), { report: { type: 'string' } });
  const [id, ...rest] = argv.filter((a, i) => !a.startsWith('-') && argv[i - 1] !== '--report');
  if (values.help) {
    process.stdout.write(EXPLAIN_HELP);
    return 0;
  }
  if (id === undefined || rest.length > 0) throw new HarnessError('USAGE_ERROR', 'explain takes exactly one ID', 'see: cpr-conformance explain --help');
  const scenarios = loadSuites().flatMap((s) => s.scenarios);
  const requirement = findRequirement(id);
  const out: string[] = [];
  const version = PROFILE_VERSIONS.find((v) => v.id === id);
  if (version) {
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
    if (!existsSync(SPEC) && requirement.sections.length > 0) {
      out.push('', `  (the spec's text is not shown: ${SPEC} is not there. The spec, cpr-cashpack-spec.md, is not part of this repository: put it beside the checkout in ../shared/spec/ or set CPR_SPEC to its path)`);
    }
    for (const section of requirement.sections) {
      const text = specSection(section);
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
      const known = [...loadRegistry().map((r) => r.id), ...scenarios.map((s) => s.id), ...PROPERTIES.map((p) => p.id), ...Object.keys(ERRORS), ...PROFILE_VERSIONS.map((v) => v.id)];
      throw new HarnessError('USAGE_ERROR', `no requirement, scenario, property, error code or profile version is ${JSON.stringify(id)}${didYouMean(id, known)}`, 'list them with: cpr-conformance list');
    }
    out.push(`${scenario.id}  ${scenario.level}  ${scenario.role}`, `  ${scenario.title}`, `  ${scenario.file}:${scenario.line}`, `  proves: ${scenario.requirements.join(', ')}`);
    if (scenario.needs.length) out.push(`  needs: ${scenario.needs.join(', ')}`);
    if (scenario.info) out.push(`  ${scenario.info.trim()}`);
    out.push('  steps:', ...scenario.steps.map((s) => `    ${s.index + 1}. ${s.action}${s.as ? ` as ${s.as}` : ''}${s.expect.length ? ` — ${s.expect.map((c) => c.name).join(', ')}` : ''}`));
  }
  if (values.report !== undefined) out.push('', ...inReport(id, values.report as string));
  process.stdout.write(`${out.join('\n')}\n`);
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
      if (t) out.push(`    ${t.id}  ${shownOutcome(t)}${t.basis ? ` (${t.basis})` : ''}${t.error_code ? ` ${t.error_code}` : ''}${t.reason ? `: ${t.reason.split('\n')[0]!.slice(0, 300)}` : ''}`);
      for (const left of (t?.not_evaluated ?? []).filter((n) => n.requirement === requirement.id)) out.push(`      not evaluated: ${left.check} at step ${left.step ?? '?'}, after ${left.after} saw another answer`);
    }
    return out;
  }
  const test = report.tests.find((t) => t.id === id);
  if (!test) return [...out, `  ${id} is not in that report (the run did not select it)`];
  out.push(`  ${test.id}: ${shownOutcome(test)}${test.error_code ? ` ${test.error_code}` : ''}${test.known_failure ? ' (known failure)' : ''}`);
  if (shownOutcome(test) === 'warning') out.push(`  a warning, not a failure: ${WARNING_MEANING}`);
  if (test.reason) out.push(`  why: ${test.reason}`);
  for (const c of test.checks.filter((x) => !x.passed)) out.push(`    failed check ${c.check} (${c.requirement})${atStep(c)}: ${c.message}`);
  out.push(`  rerun: ${test.rerun}`);
  return out;
}

/** The text under a "### 5.1 ..." heading (or "## 5 ...") of the spec, up to the next heading. */
function specSection(section: string): string | undefined {
  if (!existsSync(SPEC)) return undefined;
  const number = section.replace(/^§/, '').split('.').slice(0, 2).join('.');
  const lines = readFileSync(SPEC, 'utf8').split('\n');
  const start = lines.findIndex((l) => new RegExp(`^#{2,3} ${number.replace('.', '\\.')}[. ]`).test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^#{2,3} /.test(l));
  return lines.slice(start, end < 0 ? undefined : end).join('\n').trim().slice(0, 3000);
}
