// Whether a report certifies its target: the rule both certify and verify-package apply.
import { UNTESTED, type Report } from '../report/model.ts';

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
