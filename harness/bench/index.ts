// harness/bench: the performance benchmark, `cpr-conformance bench`.
export { FULL_PLAN, LONG_PLAN, QUICK_PLAN, PHASE_TITLES, machineOf, runBench, writeBenchJson, type BenchPlan, type BenchReport, type Machine, type Phase } from './bench.ts';
export { FIGURES, formatTarget, formatValue, meets, verdicts, type Figure, type FigureKey, type Figures, type Target, type Mark } from './figures.ts';
export { renderTable } from './table.ts';
export { MUTATION_RESULT_FILE, readMutationScore, renderMutationScore, roleOfFile, scoreOf, type MutationRole, type MutationScore, type RoleScore } from './mutation-score.ts';
