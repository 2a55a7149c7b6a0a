// `cpr-conformance list`: what a run would execute, with a count; nothing runs.
import { resolve } from 'node:path';
import { ROLES, type Role } from '../../profile/registry.ts';
import { loadSuites, suiteFiles } from '../scenarios/load.ts';
import { PROPERTIES } from '../properties/catalogue.ts';
import { selectProperties, selectScenarios } from '../runner/select.ts';
import { optionsHelp, parse, shardOption, type Declared } from './args.ts';
import { planOf, testId } from '../runner/plan.ts';
import { shardingOf } from '../runner/timings.ts';
import { HarnessError } from './errors.ts';
import { processIo, type CommandIo } from '../io.ts';

/** list's options: they parse the command line and write its --help. */
export const LIST_OPTIONS = {
  only: { type: 'string', multiple: true, value: 'ID', help: 'as for run: a scenario ID, requirement ID, suite name or prefix' },
  role: { type: 'string', multiple: true, value: 'ROLE', help: 'payee, paying-app or operator' },
  scenario: { type: 'string', multiple: true, value: 'FILE', help: 'include an extra scenario file' },
  'no-properties': { type: 'boolean', help: 'as for run: the scenarios only' },
  shard: { type: 'string', value: 'i/n', help: 'as for run: only the tests of shard i of n, with the expected time of each shard' },
  'shard-timings': { type: 'string', value: 'FILE', help: 'as for run: balance by a report.json or a timings table' },
  json: { type: 'boolean', help: 'one JSON document instead of text' },
} as const satisfies Readonly<Record<string, Declared>>;

const LIST_HELP = `Usage: cpr-conformance list [options]

Lists the scenarios a run would execute (ID, level, role, capabilities needed,
title), grouped by suite file, with a count. Nothing is executed.

Options:
${optionsHelp(LIST_OPTIONS)}
`;

export async function list(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const values = parse('list', argv, LIST_OPTIONS);
  if (values.help) {
    io.stdout.write(LIST_HELP);
    return 0;
  }
  const roles = rolesOf(values.role, 'list');
  const suites = loadSuites([...suiteFiles(), ...(values.scenario ?? []).map((f) => resolve(f))]);
  const selection = { only: values.only ?? [], roles };
  const shard = shardOption('list', values.shard)?.text;
  if (values['shard-timings'] !== undefined && shard === undefined) throw new HarnessError('USAGE_ERROR', '--shard-timings goes with --shard i/n', 'see: cpr-conformance list --help');
  const allScenarios = selectScenarios(suites, selection);
  const allProperties = values['no-properties'] ? [] : selectProperties(PROPERTIES, selection);
  // The shard a run with the same selection would execute (run.ts shardingOf).
  const sharding = shardingOf(planOf(allScenarios, allProperties), shard, values['shard-timings'] as string | undefined);
  const inShard = sharding === undefined ? undefined : new Set(sharding.plan.map(testId));
  const selected = allScenarios.filter((s) => inShard?.has(s.id) ?? true);
  const properties = allProperties.filter((p) => inShard?.has(p.id) ?? true);
  const total = selected.length + properties.length;
  if (values.json) {
    const rows = selected.map((s) => ({ id: s.id, title: s.title, file: s.file, line: s.line, level: s.level, role: s.role, requirements: s.requirements, needs: s.needs }));
    const props = properties.map((p) => ({ id: p.id, title: p.title, level: p.level, role: p.role, requirements: p.requirements, needs: p.needs, default_runs: p.defaultRuns }));
    const shardInfo = sharding === undefined ? {} : { shard: { shard, estimate: sharding.estimate } };
    io.stdout.write(`${JSON.stringify({ count: total, ...shardInfo, scenarios: rows, properties: props }, null, 2)}\n`);
    return total > 0 ? 0 : 2;
  }
  let file = '';
  for (const s of selected) {
    if (s.file !== file) {
      file = s.file;
      io.stdout.write(`\n${file}\n`);
    }
    const needs = s.needs.length ? ` [needs ${s.needs.join(', ')}]` : '';
    io.stdout.write(`  ${s.id.padEnd(18)} ${s.level.padEnd(7)} ${s.role.padEnd(10)} ${s.title}${needs}\n`);
  }
  if (properties.length > 0) io.stdout.write('\nproperties (generated cases, seeded)\n');
  for (const p of properties) {
    const needs = p.needs.length ? ` [needs ${p.needs.join(', ')}]` : '';
    io.stdout.write(`  ${p.id.padEnd(18)} ${p.level.padEnd(7)} ${p.role.padEnd(10)} ${p.title} (${p.defaultRuns} cases)${needs}\n`);
  }
  io.stdout.write(`\n${selected.length} scenario(s) of ${suites.flatMap((s) => s.scenarios).length} and ${properties.length} propert${properties.length === 1 ? 'y' : 'ies'} of ${PROPERTIES.length} selected\n`);
  if (sharding !== undefined) io.stdout.write(`shard ${shard}: ${total} of ${allScenarios.length + allProperties.length} test(s), ${sharding.estimate}\n`);
  return total > 0 ? 0 : 2;
}

export function rolesOf(values: string[] | undefined, command: string): Role[] {
  return (values ?? []).map((r) => {
    if (!(ROLES as readonly string[]).includes(r)) throw new HarnessError('USAGE_ERROR', `--role takes ${ROLES.join(', ')}, not ${JSON.stringify(r)}`, `see: cpr-conformance ${command} --help`);
    return r as Role;
  });
}
