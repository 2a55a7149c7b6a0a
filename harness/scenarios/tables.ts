// The tables of actions and checks in suites/README.md, built from their one
// definition (vocabulary.ts) as the scenario schema is: `npm run scenario-schema`
// writes both, and test/harness/scenarios/schema.test.ts fails when either drifts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeWith, type ReadmeSection } from '../readme-sections.ts';
import { SUITES_DIR } from './load.ts';
import { ACTIONS, CHECKS, type ActionSpec } from './vocabulary.ts';

export const SUITES_README = join(SUITES_DIR, 'README.md');

const ACTIONS_SECTION: ReadmeSection = { title: 'Actions', name: 'scenario-actions', command: 'npm run scenario-schema' };
const CHECKS_SECTION: ReadmeSection = { title: 'Checks', name: 'scenario-checks', command: 'npm run scenario-schema' };

/** A table cell: a `|` in the text would end it. */
const cell = (text: string): string => text.replaceAll('|', '\\|');

function actionsTable(): string {
  const rows = Object.entries(ACTIONS).map(([name, spec]: [string, ActionSpec]) => `| \`${name}\` | ${spec.capability !== undefined ? `(${spec.capability}) ` : ''}${cell(spec.summary)} |`);
  return ['| action | what it does |', '|---|---|', ...rows].join('\n');
}

function checksTable(): string {
  const rows = Object.entries(CHECKS).map(([name, spec]) => `| \`${name}\` | ${cell(spec.summary)} |`);
  return ['| check | passes when |', '|---|---|', ...rows].join('\n');
}

/** suites/README.md with its tables of actions and checks as the vocabulary gives them. */
export function suitesReadmeText(readme: string = readFileSync(SUITES_README, 'utf8')): string {
  return readmeWith(CHECKS_SECTION, checksTable(), readmeWith(ACTIONS_SECTION, actionsTable(), readme));
}
