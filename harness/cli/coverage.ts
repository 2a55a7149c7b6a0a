// `cpr-conformance coverage`: the field coverage table (harness/properties/coverage.ts).
import { PROPERTIES } from '../properties/catalogue.ts';
import { coverageMarkdown, coverageRows, readmeWith, readReadme, strayCovers, writeReadme } from '../properties/coverage.ts';
import { optionsHelp, parse, type Declared } from './args.ts';
import { processIo, type CommandIo } from '../io.ts';

/** coverage's options: they parse the command line and write its --help. */
export const COVERAGE_OPTIONS = {
  write: { type: 'boolean', help: 'rewrite README.md\'s "Field coverage" section with the table' },
  check: { type: 'boolean', help: "change nothing; exit 1 when README.md's table differs from the code's, or when a (field, class) pair has nothing covering it" },
  json: { type: 'boolean', help: 'the rows as JSON' },
} as const satisfies Readonly<Record<string, Declared>>;

const COVERAGE_HELP = `Usage: cpr-conformance coverage [options]

Prints the field coverage table: every field of the profile (the JSON Schemas
of profile/schemas/, the test-control vocabulary, the derivation input and the
HTTP surfaces), every equivalence and boundary class of it, and the properties
that generate that class and check the outcome. Nothing is sent to a target.

Options:
${optionsHelp(COVERAGE_OPTIONS)}

Exit codes: 0 success; 1 with --check, a stale table or an uncovered class;
2 usage error.
`;

export async function coverage(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const values = parse('coverage', argv, COVERAGE_OPTIONS);
  if (values.help) {
    io.stdout.write(COVERAGE_HELP);
    return 0;
  }
  const rows = coverageRows(PROPERTIES);
  const table = coverageMarkdown(rows);
  if (values.json) {
    io.stdout.write(`${JSON.stringify(rows.map((r) => ({ field: r.field.id, kind: r.field.kind, class: r.class, covered_by: r.by })), null, 2)}\n`);
    return 0;
  }
  if (values.write) {
    writeReadme(readmeWith(table));
    io.stdout.write(`README.md: Field coverage rewritten (${rows.length} pairs)\n`);
    return 0;
  }
  if (values.check) {
    const problems = [
      ...rows.filter((r) => r.by.length === 0).map((r) => `${r.field.id} × ${r.class}: nothing covers it`),
      ...strayCovers(PROPERTIES),
      ...(readmeWith(table) === readReadme() ? [] : ['README.md: the Field coverage table is stale; run: npm run coverage-table']),
    ];
    for (const p of problems) io.stdout.write(`${p}\n`);
    io.stdout.write(problems.length === 0 ? `field coverage: ${rows.length} pairs, every one covered, README.md current\n` : `field coverage: ${problems.length} problem(s)\n`);
    return problems.length === 0 ? 0 : 1;
  }
  io.stdout.write(`${table}\n`);
  return 0;
}
