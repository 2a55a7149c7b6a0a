// `npm run mutation-table`: rewrites README.md's mutation figures from the
// committed campaign result (mutation/stryker-incremental.json). A test keeps
// the README and the result in step (test/harness/bench/mutation-score.test.ts).
import { readmeWith, writeReadme } from '../readme-sections.ts';
import { PROJECT_ROOT } from '../scenarios/load.ts';
import { MUTATION_FIGURES, MUTATION_RESULT_FILE, mutationMarkdown, readMutationScore } from './mutation-score.ts';

const score = readMutationScore(PROJECT_ROOT);
if (score === undefined) {
  process.stderr.write(`no campaign result in ${MUTATION_RESULT_FILE}: npm run mutation writes it\n`);
  process.exit(2);
}
writeReadme(readmeWith(MUTATION_FIGURES, mutationMarkdown(score)));
process.stdout.write(`README.md: mutation figures rewritten from ${MUTATION_RESULT_FILE}\n`);
