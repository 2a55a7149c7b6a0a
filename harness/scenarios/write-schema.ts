// Rewrites suites/scenario.schema.json and the tables of actions and checks in
// suites/README.md from the vocabulary: `npm run scenario-schema`.
// test/harness/scenarios/schema.test.ts fails when the committed files drift.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUITES_DIR } from './load.ts';
import { scenarioSchemaText } from './schema.ts';
import { SUITES_README, suitesReadmeText } from './tables.ts';

const file = join(SUITES_DIR, 'scenario.schema.json');
writeFileSync(file, scenarioSchemaText());
process.stdout.write(`wrote ${file}\n`);
writeFileSync(SUITES_README, suitesReadmeText());
process.stdout.write(`wrote ${SUITES_README}\n`);
