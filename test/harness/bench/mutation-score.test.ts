import { describe, expect, it } from 'vitest';
import { excludedFiles, MUTATION_FIGURES, mutationMarkdown, readMutationScore, renderMutationScore, roleOfFile, scoreOf } from '../../../harness/bench/mutation-score.ts';
import { readmeWith, readReadme } from '../../../harness/readme-sections.ts';
import { PROJECT_ROOT } from '../../../harness/scenarios/load.ts';
// The reasons the project's two ignorers give, as Stryker records them.
import { REASON as FAULT } from '../../../mutation/fault-switch-ignorer.js';
import { REASON as FREE_TEXT } from '../../../mutation/free-text-ignorer.js';
const mutants = (...statuses: (string | [string, string])[]) => ({ mutants: statuses.map((s) => (typeof s === 'string' ? { status: s } : { status: s[0], statusReason: s[1] })) });

describe('the mutation score read from a campaign result', () => {
  it.each([
    ['reference/operator/issue.ts', 'operator'],
    ['reference/payee/tokens.ts', 'payee'],
    ['reference/paying-app/derive.ts', 'paying-app'],
    ['reference/http/server.ts', 'shared'],
    ['reference/start.ts', 'shared'],
  ])('charges %s to %s', (file, role) => {
    expect(roleOfFile(file)).toBe(role);
  });

  it('scores each role killed / (killed + survived), and names timeouts, no coverage, equivalents, fault switches and free text apart', () => {
    const roles = scoreOf({
      files: {
        'reference/operator/issue.ts': mutants('Killed', 'Killed', 'Killed', 'Survived', 'Timeout', 'NoCoverage', ['Ignored', FAULT], ['Ignored', 'only the op-issue-non-atomic fault calls this function'], ['Ignored', FREE_TEXT], ['Ignored', FREE_TEXT], ['Ignored', 'forgetting later is a MAY']),
        'reference/operator/renew.ts': mutants('Killed', 'CompileError', ['Ignored', 'only the op-a and op-b faults call this function'], ['Ignored', 'only the op-a, op-b and op-c faults read it'], ['Ignored', 'only the faults of a kind read it']),
        'reference/payee/tokens.ts': mutants('Survived', 'RuntimeError'),
      },
    });
    const operator = roles.find((r) => r.role === 'operator')!;
    // Code that several faults share counts as a switch of theirs; a reason that names none is an equivalent.
    expect(operator).toEqual({ role: 'operator', killed: 4, survived: 1, timeout: 1, no_coverage: 1, compile_error: 1, runtime_error: 0, equivalent: 2, fault_switch: 4, free_text: 2, files: 2, score: 0.8 });
    expect(roles.find((r) => r.role === 'payee')!.score).toBe(0);
    expect(roles.find((r) => r.role === 'paying-app')).toMatchObject({ files: 0, score: undefined });
  });

  it('says so when there is no campaign result, and prints each measured role with its figures', () => {
    expect(renderMutationScore(undefined)[0]).toMatch(/no campaign result in mutation\/stryker-incremental\.json/);
    const lines = renderMutationScore({ file: 'mutation/x.json', roles: scoreOf({ files: { 'reference/payee/a.ts': mutants('Killed', 'Killed', 'Killed', 'Survived') } }) });
    expect(lines.find((l) => l.includes('payee'))).toMatch(/75\.0%\s+3 killed, 1 survived, 0 timeout/);
    expect(lines.find((l) => l.includes('operator'))).toMatch(/not measured/);
  });

  it('reads the committed campaign result of this project', () => {
    const score = readMutationScore(PROJECT_ROOT);
    expect(score?.file).toBe('mutation/stryker-incremental.json');
    expect(score!.roles.some((r) => r.score !== undefined)).toBe(true);
  });

  it('is the table README.md shows, each measured role a row', () => {
    const table = mutationMarkdown(readMutationScore(PROJECT_ROOT)!);
    expect(table.split('\n').length).toBeGreaterThan(2);
    expect(readmeWith(MUTATION_FIGURES, table) === readReadme(), 'README.md mutation figures are stale: run npm run mutation-table').toBe(true);
  });

  it('knows the files the configuration leaves out, so a narrowed campaign that mutated one does not count it', () => {
    expect(excludedFiles(PROJECT_ROOT)).toEqual(expect.arrayContaining(['reference/mutants.ts', 'reference/payee/input.ts', 'reference/paying-app/mutant-validation.ts']));
  });
});
