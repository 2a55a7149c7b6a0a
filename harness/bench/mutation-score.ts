// The suite's power against faults nobody chose: the mutation score of each
// role of the reference, read from the committed result of the last mutation
// campaign (mutation/stryker-incremental.json, written by `npm run mutation`;
// README "Mutation testing"). Read, never measured here: a campaign takes hours.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadmeSection } from '../readme-sections.ts';

/** The campaign's result file, relative to the project root. */
export const MUTATION_RESULT_FILE = 'mutation/stryker-incremental.json';

export type MutationRole = 'operator' | 'payee' | 'paying-app' | 'shared';

export interface RoleScore {
  readonly role: MutationRole;
  readonly killed: number;
  readonly survived: number;
  readonly timeout: number;
  /** No test reached the mutant. */
  readonly no_coverage: number;
  /** Refused by the type check: never run. */
  readonly compile_error: number;
  readonly runtime_error: number;
  /** Marked equivalent at its line (a Stryker disable comment giving the reason). */
  readonly equivalent: number;
  /** Inside a hand-made fault's switch (mutation/fault-switch-ignorer.js), or code only a hand-made fault calls: no test run reaches it by design. */
  readonly fault_switch: number;
  /** The words of a message no rule fixes (mutation/free-text-ignorer.js): a problem's detail, a rejection's message. */
  readonly free_text: number;
  /** Files of the role with results: a campaign narrowed with --mutate leaves the others out. */
  readonly files: number;
  /** killed / (killed + survived); undefined when neither happened. */
  readonly score: number | undefined;
}

export interface MutationScore {
  readonly file: string;
  readonly roles: readonly RoleScore[];
  /** The commit that last wrote the file, when git can say. */
  readonly committed?: { readonly commit: string; readonly date: string };
}

interface ReportMutant {
  readonly status: string;
  readonly statusReason?: string;
}

const ROLES: readonly MutationRole[] = ['operator', 'payee', 'paying-app', 'shared'];
/** The fault-switch ignorer's reason, or a disable comment's "only the <mutant> fault calls/reads/uses ..." ("only the <mutant> and <mutant> faults ..." for code several share). */
const FAULT_SWITCH = /hand-made fault of reference\/mutants\.ts|^only the [a-z0-9-]+ fault |^only the [a-z0-9-]+(?:,? (?:and )?[a-z0-9-]+)+ faults /;
const FREE_TEXT = /^free text for a reader/;

/** reference/operator/x.ts → operator; anything else under reference/ → shared. */
export function roleOfFile(file: string): MutationRole {
  const folder = /^reference\/([^/]+)\//.exec(file)?.[1];
  return folder === 'operator' || folder === 'payee' || folder === 'paying-app' ? folder : 'shared';
}

/** The scores of a Stryker mutation-testing report (mutation-testing-report-schema). */
export function scoreOf(report: { readonly files: Readonly<Record<string, { readonly mutants: readonly ReportMutant[] }>> }): RoleScore[] {
  const mutants = new Map<MutationRole, ReportMutant[]>(ROLES.map((r) => [r, []]));
  const files = new Map<MutationRole, number>(ROLES.map((r) => [r, 0]));
  for (const [file, entry] of Object.entries(report.files)) {
    const role = roleOfFile(file);
    mutants.get(role)!.push(...entry.mutants);
    files.set(role, files.get(role)! + 1);
  }
  return ROLES.map((role) => {
    const of = mutants.get(role)!;
    const count = (status: string, reason?: (r: string) => boolean) => of.filter((m) => m.status === status && (reason === undefined || reason(m.statusReason ?? ''))).length;
    const killed = count('Killed');
    const survived = count('Survived');
    return {
      role,
      killed,
      survived,
      timeout: count('Timeout'),
      no_coverage: count('NoCoverage'),
      compile_error: count('CompileError'),
      runtime_error: count('RuntimeError'),
      equivalent: count('Ignored', (r) => !FAULT_SWITCH.test(r) && !FREE_TEXT.test(r)),
      fault_switch: count('Ignored', (r) => FAULT_SWITCH.test(r)),
      free_text: count('Ignored', (r) => FREE_TEXT.test(r)),
      files: files.get(role)!,
      score: killed + survived === 0 ? undefined : killed / (killed + survived),
    };
  });
}

/** The committed campaign's scores; undefined when the project has none. */
export function readMutationScore(root: string): MutationScore | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, MUTATION_RESULT_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const report = JSON.parse(text) as Parameters<typeof scoreOf>[0];
  // A campaign narrowed on the command line may have mutated a file the configuration leaves out: it is not counted.
  const excluded = new Set(excludedFiles(root));
  const roles = scoreOf({ files: Object.fromEntries(Object.entries(report.files).filter(([file]) => !excluded.has(file))) });
  const committed = lastCommitOf(root, MUTATION_RESULT_FILE);
  return { file: MUTATION_RESULT_FILE, roles, ...(committed ? { committed } : {}) };
}

/** The files stryker.config.mjs leaves out of `mutate` ('!path' entries). */
export function excludedFiles(root: string): string[] {
  try {
    const config = readFileSync(join(root, 'stryker.config.mjs'), 'utf8');
    return [...config.matchAll(/'!([^'*]+)'/g)].map((m) => m[1]!);
  } catch {
    return [];
  }
}

function lastCommitOf(root: string, file: string): { commit: string; date: string } | undefined {
  try {
    const line = execFileSync('git', ['log', '-1', '--format=%h %cs', '--', file], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const [commit, date] = line.split(' ');
    return commit && date ? { commit, date } : undefined;
  } catch {
    return undefined;
  }
}

/** One line per role, for the benchmark's output and the README. */
export function renderMutationScore(score: MutationScore | undefined): string[] {
  if (score === undefined) return [`mutation score: no campaign result in ${MUTATION_RESULT_FILE} (npm run mutation writes it)`];
  const when = score.committed ? `committed ${score.committed.date} in ${score.committed.commit}` : 'not committed';
  const rows = score.roles.map((r) => {
    const named = [`${r.killed} killed`, `${r.survived} survived`, `${r.timeout} timeout`, `${r.no_coverage} no coverage`, `${r.equivalent} equivalent`, `${r.fault_switch} fault switch`, `${r.free_text} free text`, `${r.compile_error} type error`];
    const percent = r.score === undefined ? 'not measured' : `${(r.score * 100).toFixed(1)}%`;
    return `  ${r.role.padEnd(10)}  ${percent.padStart(12)}  ${named.join(', ')} (${r.files} file${r.files === 1 ? '' : 's'})`;
  });
  return [`mutation score (killed / (killed + survived); read from ${score.file}, ${when}; not re-measured):`, ...rows];
}

/** README.md's mutation figures (harness/readme-sections.ts): written by `npm run mutation-table` from the committed result. */
export const MUTATION_FIGURES: ReadmeSection = { title: 'Mutation testing', name: 'mutation-figures', command: 'npm run mutation-table' };

/** The Markdown table of the score per role: each measured role, its figures, and what is counted apart. */
export function mutationMarkdown(score: MutationScore): string {
  const header = '| role | files | score | killed | survived | timeout | no coverage | equivalent | fault switch | free text | type error |';
  const rows = score.roles
    .filter((r) => r.files > 0)
    .map((r) => `| ${r.role} | ${r.files} | ${r.score === undefined ? 'not measured' : `${(r.score * 100).toFixed(1)}%`} | ${r.killed} | ${r.survived} | ${r.timeout} | ${r.no_coverage} | ${r.equivalent} | ${r.fault_switch} | ${r.free_text} | ${r.compile_error} |`);
  return [header, '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|', ...rows].join('\n');
}
