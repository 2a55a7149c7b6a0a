// `cpr-conformance list`: what a run would execute, with a count; nothing runs.
import { resolve } from 'node:path';
import { ROLES, type Role } from '../../profile/registry.ts';
import { loadSuites, suiteFiles } from '../scenarios/load.ts';
import { PROPERTIES } from '../properties/catalogue.ts';
import { selectProperties, selectScenarios } from '../runner/select.ts';
import { parse } from './args.ts';
import { HarnessError } from './errors.ts';

const LIST_HELP = `Usage: cpr-conformance list [options]

Lists the scenarios a run would execute (ID, level, role, capabilities needed,
title), grouped by suite file, with a count. Nothing is executed.

Options:
  --only ID          as for run: a scenario ID, requirement ID, suite name or prefix
  --role ROLE        payee, paying-app or operator; repeatable
  --scenario FILE    include an extra scenario file; repeatable
  --json             one JSON document instead of text
  -h, --help         show this help
`;

export async function list(argv: string[]): Promise<number> {
  const values = parse('list', argv, {
    only: { type: 'string', multiple: true },
    role: { type: 'string', multiple: true },
    scenario: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  });
  if (values.help) {
    process.stdout.write(LIST_HELP);
    return 0;
  }
  const roles = rolesOf(values.role as string[] | undefined, 'list');
  const suites = loadSuites([...suiteFiles(), ...((values.scenario as string[] | undefined) ?? []).map((f) => resolve(f))]);
  const selection = { only: (values.only as string[] | undefined) ?? [], roles };
  const selected = selectScenarios(suites, selection);
  const properties = selectProperties(PROPERTIES, selection);
  const total = selected.length + properties.length;
  if (values.json) {
    const rows = selected.map((s) => ({ id: s.id, title: s.title, file: s.file, line: s.line, level: s.level, role: s.role, requirements: s.requirements, needs: s.needs }));
    const props = properties.map((p) => ({ id: p.id, title: p.title, level: p.level, role: p.role, requirements: p.requirements, needs: p.needs, default_runs: p.defaultRuns }));
    process.stdout.write(`${JSON.stringify({ count: total, scenarios: rows, properties: props }, null, 2)}\n`);
    return total > 0 ? 0 : 2;
  }
  let file = '';
  for (const s of selected) {
    if (s.file !== file) {
      file = s.file;
      process.stdout.write(`\n${file}\n`);
    }
    const needs = s.needs.length ? ` [needs ${s.needs.join(', ')}]` : '';
    process.stdout.write(`  ${s.id.padEnd(18)} ${s.level.padEnd(7)} ${s.role.padEnd(10)} ${s.title}${needs}\n`);
  }
  if (properties.length > 0) process.stdout.write('\nproperties (generated cases, seeded)\n');
  for (const p of properties) {
    const needs = p.needs.length ? ` [needs ${p.needs.join(', ')}]` : '';
    process.stdout.write(`  ${p.id.padEnd(18)} ${p.level.padEnd(7)} ${p.role.padEnd(10)} ${p.title} (${p.defaultRuns} cases)${needs}\n`);
  }
  process.stdout.write(`\n${selected.length} scenario(s) of ${suites.flatMap((s) => s.scenarios).length} and ${properties.length} propert${properties.length === 1 ? 'y' : 'ies'} of ${PROPERTIES.length} selected\n`);
  return total > 0 ? 0 : 2;
}

export function rolesOf(values: string[] | undefined, command: string): Role[] {
  return (values ?? []).map((r) => {
    if (!(ROLES as readonly string[]).includes(r)) throw new HarnessError('USAGE_ERROR', `--role takes ${ROLES.join(', ')}, not ${JSON.stringify(r)}`, `see: cpr-conformance ${command} --help`);
    return r as Role;
  });
}
