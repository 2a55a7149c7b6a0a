// Rewrites suites/scenario.schema.json from the vocabulary: `npm run scenario-schema`.
// test/harness/scenarios/schema.test.ts fails when the committed file drifts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUITES_DIR } from './load.ts';
import { scenarioSchemaText } from './schema.ts';

const file = join(SUITES_DIR, 'scenario.schema.json');
writeFileSync(file, scenarioSchemaText());
process.stdout.write(`wrote ${file}\n`);
