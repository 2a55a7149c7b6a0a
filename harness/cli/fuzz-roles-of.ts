// `cpr-conformance fuzz roles REPORT`: the roles a run's report says its
// target can be fuzzed in, for a CI step that fuzzes every one (action.yml):
// the roles the target has (the report's target), narrowed by the run's --role
// selection, each with the test-control capabilities its fuzzer needs
// (fuzz-roles.ts). The others are named on stderr with why.
import { FUZZ_ROLES, type FuzzRole } from '../fuzz/crash.ts';
import { readReport } from '../report/json.ts';
import type { Report } from '../report/model.ts';
import { optionsHelp, parseCommand, type Declared } from './args.ts';
import { HarnessError } from './errors.ts';
import { FUZZ_NEEDS } from './fuzz-roles.ts';
import { processIo, type CommandIo } from '../io.ts';

/** fuzz roles takes no options but --help: declared all the same, so its --help and parsing come from one place. */
export const FUZZ_ROLES_OPTIONS = {} as const satisfies Readonly<Record<string, Declared>>;

const ROLES_HELP = `Usage: cpr-conformance fuzz roles REPORT

Prints, one a line, the roles the target of a run (its report.json) can be
fuzzed in: every role it has among those the run selected (--role; all when
none), the operator and the payee only with the test-control capabilities their
fuzzers need (the operator: ${FUZZ_NEEDS.operator.capabilities.join(', ')}; the payee:
${FUZZ_NEEDS.payee.capabilities.join(', ')}). Each role left out is named on stderr with why.

Options:
${optionsHelp(FUZZ_ROLES_OPTIONS)}

Exit codes: 0 (even when no role can be fuzzed), 2 usage error or a report
that cannot be read.
`;

interface FuzzableRoles {
  readonly roles: readonly FuzzRole[];
  readonly left: readonly { readonly role: FuzzRole; readonly why: string }[];
}

/** The roles of the report's target that can be fuzzed, and why each other one cannot. */
export function fuzzableRoles(report: Pick<Report, 'run'>): FuzzableRoles {
  const selected = report.run.selection.roles;
  const roles: FuzzRole[] = [];
  const left: { role: FuzzRole; why: string }[] = [];
  for (const role of FUZZ_ROLES) {
    const described = report.run.target.roles[role];
    if (selected.length > 0 && !selected.includes(role)) left.push({ role, why: 'the run did not select it (--role)' });
    else if (!described) left.push({ role, why: 'the target has no such role' });
    else if (role === 'paying-app') roles.push(role);
    else {
      const missing = FUZZ_NEEDS[role].capabilities.filter((c) => !described.capabilities.includes(c));
      if (missing.length > 0) left.push({ role, why: `it lacks the test-control capabilit${missing.length === 1 ? 'y' : 'ies'} ${missing.join(', ')}` });
      else roles.push(role);
    }
  }
  return { roles, left };
}

export async function fuzzRolesOf(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const { values, positionals } = parseCommand('fuzz roles', argv, FUZZ_ROLES_OPTIONS);
  if (values.help) {
    io.stdout.write(ROLES_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new HarnessError('USAGE_ERROR', 'fuzz roles needs one report.json', 'e.g. cpr-conformance fuzz roles reports/latest/report.json');
  const { roles, left } = fuzzableRoles(readReport(positionals[0]!));
  for (const role of roles) io.stdout.write(`${role}\n`);
  for (const { role, why } of left) io.stderr.write(`cpr-conformance: not fuzzing the ${role}: ${why}\n`);
  return 0;
}
