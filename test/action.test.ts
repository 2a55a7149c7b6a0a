// The GitHub Action (action.yml at the root): parsed, and its shell steps run
// here, in order, as the runner would run them (bash -eo pipefail, the
// expressions filled in from the inputs and the earlier steps' outputs), with
// the reference implementation started by the action's own `start` input. The
// `uses:` steps (setup-node, upload-artifact) belong to GitHub: their
// settings are checked, not run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { freePort } from './support/ports.ts';

vi.setConfig({ testTimeout: 300_000 });

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = join(ROOT, 'bin/cpr-conformance.js');

interface ActionStep {
  readonly id?: string;
  readonly name?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly shell?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
  readonly 'working-directory'?: string;
}
interface Action {
  readonly inputs: Record<string, { readonly default?: string; readonly required?: boolean }>;
  readonly outputs: Record<string, { readonly value: string }>;
  readonly runs: { readonly using: string; readonly steps: ActionStep[] };
}

const action = YAML.parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

interface Context {
  readonly inputs: Record<string, string>;
  readonly steps: Record<string, Record<string, string>>;
}

/** A `${{ }}` expression of the few forms action.yml uses; anything else fails the test. */
function evaluate(expression: string, context: Context): string {
  const e = expression.trim();
  let m: RegExpExecArray | null;
  if ((m = /^inputs\.([\w-]+)$/.exec(e))) return context.inputs[m[1]!] ?? '';
  if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e))) return context.steps[m[1]!]?.[m[2]!] ?? '';
  if (e === 'github.action_path') return ROOT;
  if (e === 'github.run_number') return '17';
  throw new Error(`action.yml uses an expression this test does not know: ${e}`);
}

function fill(text: string, context: Context): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_m, e: string) => evaluate(e, context));
}

/** A step's `if:`, of the forms action.yml uses: always(), and comparisons of inputs joined by &&. */
function condition(text: string | undefined, context: Context): boolean {
  if (text === undefined) return true;
  return text.split('&&').every((part) => {
    const p = part.trim();
    if (p === 'always()') return true;
    const m = /^([\w.-]+) (==|!=) '([^']*)'$/.exec(p);
    if (!m) throw new Error(`action.yml uses a condition this test does not know: ${p}`);
    return (evaluate(m[1]!, context) === m[3]) === (m[2] === '==');
  });
}

interface Ran {
  readonly context: Context;
  readonly logs: Record<string, string>;
  readonly statuses: Record<string, number | null>;
  readonly summary: string;
  /** The `uses:` steps, with their settings filled in. */
  readonly used: { readonly uses: string; readonly with: Record<string, string>; readonly if?: string }[];
  readonly outputs: Record<string, string>;
}

/** Runs the action's steps with these inputs, in `workspace`, as a job would. */
function runAction(given: Record<string, string>, workspace: string): Ran {
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) inputs[name] = given[name] ?? fill(spec.default ?? '', { inputs: {}, steps: {} });
  const context: Context = { inputs, steps: {} };
  const summaryFile = join(workspace, 'step-summary.md');
  writeFileSync(summaryFile, '');
  const logs: Record<string, string> = {};
  const statuses: Record<string, number | null> = {};
  const used: Ran['used'] = [];
  let failed = false;
  action.runs.steps.forEach((step, index) => {
    const key = step.id ?? step.name ?? String(index);
    if (failed && !(step.if ?? '').includes('always()')) return;
    if (!condition(step.if, context)) return;
    if (step.uses !== undefined) {
      used.push({ uses: step.uses, with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, fill(String(v), context)])), ...(step.if !== undefined ? { if: step.if } : {}) });
      return;
    }
    expect(step.shell, `${key}: shell`).toBe('bash');
    const script = join(workspace, `step-${index}.sh`);
    writeFileSync(script, fill(step.run!, context));
    const outputFile = join(workspace, `output-${index}`);
    writeFileSync(outputFile, '');
    const env = { ...process.env, CI: 'true', NO_COLOR: '1', GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_ACTION_PATH: ROOT, ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(String(v), context)])) };
    const cwd = step['working-directory'] !== undefined ? fill(step['working-directory'], context) : workspace;
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, encoding: 'utf8', timeout: 240_000 });
    logs[key] = `${r.stdout}${r.stderr}`;
    statuses[key] = r.status;
    if (step.id !== undefined) {
      context.steps[step.id] = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
    }
    if (r.status !== 0) failed = true;
  });
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, o]) => [name, fill(o.value, context)]));
  return { context, logs, statuses, summary: readFileSync(summaryFile, 'utf8'), used, outputs };
}


/** Inputs that start the reference (a mutant of it, say) through `start` on a port of its own. */
async function referenceInputs(workspace: string, serveArgs: string[] = []): Promise<Record<string, string>> {
  const port = await freePort();
  const url = `https://127.0.0.1:${port}`;
  return {
    target: url,
    ca: 'ca.pem',
    start: `'${process.execPath}' '${BIN}' serve --port ${port} --no-plaintext --ca-out '${join(workspace, 'ca.pem')}' ${serveArgs.join(' ')}`,
    ready: `${url}/.well-known/cashpack-policy.json`,
  };
}

describe('action.yml', () => {
  it('is a composite action whose inputs cover the target, CA, start, ready, roles, strict, baseline, shard and fuzz time', () => {
    expect(action.runs.using).toBe('composite');
    for (const input of ['target', 'ca', 'start', 'ready', 'roles', 'strict', 'baseline', 'shard', 'fuzz-time', 'fuzz-roles']) expect(action.inputs, input).toHaveProperty(input);
    expect(action.inputs['target']!.required).toBe(true);
  });

  it('passes inputs to its scripts through env only: no expression is pasted into a shell line', () => {
    for (const step of action.runs.steps.filter((s) => s.run !== undefined)) expect(step.run, step.name).not.toMatch(/\$\{\{/);
  });

  it('uploads the report folder and writes the job summary whatever happened', () => {
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe('always()');
    expect(upload.with).toMatchObject({ path: '${{ inputs.report-dir }}', name: '${{ inputs.artifact }}' });
    expect(action.runs.steps.find((s) => s.name === 'Job summary')!.if).toBe('always()');
  });

  it('runs a conformant selection and a short fuzzing campaign of each fuzzable role against the server it starts: summary written, step passes', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'cpr-action-'));
    const inputs = { ...(await referenceInputs(workspace)), args: '--only CPP-ISS-001 --only TOK-GET-001 --no-properties --allow-partial', 'fuzz-time': '2' };
    const ran = runAction(inputs, workspace);
    // Installed from the action's own checkout (here: already installed).
    expect(ran.logs['install']).toContain('cpr-conformance: the harness is already installed in');
    expect(ran.statuses['run'], ran.logs['run']).toBe(0);
    expect(ran.logs['run']).toMatch(/^server: stopped$/m);
    // A URL target is a payee and an Operator, both with the test control their fuzzers need: each fuzzed for its share (1 s of 2).
    expect(ran.outputs).toMatchObject({ verdict: 'incomplete', 'exit-code': '0', 'fuzz-exit-code': '0', 'fuzz-results': 'operator=0 payee=0', 'report-dir': 'cpr-conformance-report' });
    expect(ran.statuses['fuzz'], ran.logs['fuzz']).toBe(0);
    expect(ran.logs['fuzz']).toMatch(/fuzzing the operator for 1 s[\s\S]*nothing found: every answer matched the model[\s\S]*fuzzing the payee for 1 s[\s\S]*fuzz --role payee[\s\S]*nothing found/);
    expect(ran.logs['fuzz']).toContain('not fuzzing the paying-app: the target has no such role');
    expect(existsSync(join(workspace, 'cpr-conformance-report', 'server.log'))).toBe(true);
    expect(ran.summary).toMatch(/^## cpr-conformance: INCOMPLETE/);
    expect(ran.summary).toContain('**Fuzzing the operator**: nothing found');
    expect(ran.summary).toContain('**Fuzzing the payee**: nothing found');
    expect(ran.used.find((u) => u.uses.startsWith('actions/upload-artifact@'))!.with).toMatchObject({ path: 'cpr-conformance-report', name: 'cpr-conformance-report' });
    expect(ran.statuses['Verdict']).toBe(0);
  });

  it('fuzzes the roles fuzz-roles names, one line each in the summary, and fails the step with the highest exit code of them', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'cpr-action-'));
    // A URL target has no paying application: its fuzzer ends in error (exit 2), the Operator's finds nothing.
    const inputs = { ...(await referenceInputs(workspace)), args: '--only CPP-ISS-001 --no-properties --allow-partial', 'fuzz-time': '2', 'fuzz-roles': 'operator,paying-app' };
    const ran = runAction(inputs, workspace);
    expect(ran.outputs).toMatchObject({ 'exit-code': '0', 'fuzz-exit-code': '2', 'fuzz-results': 'operator=0 paying-app=2' });
    expect(ran.logs['fuzz']).toMatch(/has no paying application/);
    expect(ran.summary).toContain('**Fuzzing the operator**: nothing found');
    expect(ran.summary).toContain('**Fuzzing the paying-app**: ended in error (exit 2)');
    expect(ran.statuses['Verdict']).toBe(2);
    expect(ran.logs['Verdict']).toContain('::error title=cpr-conformance fuzz::exit 2 (operator=0 paying-app=2)');
  });

  it('fails the step on a non-conformant run, after the summary and the upload', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'cpr-action-'));
    const inputs = { ...(await referenceInputs(workspace, ['--mutant', 'op-limit-off-by-one'])), args: '--only CPP-LIM-001 --no-properties' };
    const ran = runAction(inputs, workspace);
    expect(ran.outputs).toMatchObject({ verdict: 'non-conformant', 'exit-code': '1', 'fuzz-exit-code': '' });
    expect(ran.summary).toMatch(/^## cpr-conformance: NON-CONFORMANT/);
    expect(ran.summary).toContain('#### Test CPP-LIM-001:');
    expect(ran.used.some((u) => u.uses.startsWith('actions/upload-artifact@'))).toBe(true);
    expect(ran.statuses['Verdict']).toBe(1);
    expect(ran.logs['Verdict']).toContain('::error title=cpr-conformance::verdict non-conformant (exit 1)');
  });

  it('fails the step, with a summary that says so, when the server never starts', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'cpr-action-'));
    const ran = runAction({ target: 'https://127.0.0.1:9', start: 'echo "listening nowhere"; exit 4', 'ready-timeout': '5' }, workspace);
    expect(ran.outputs).toMatchObject({ verdict: 'none', 'exit-code': '2' });
    expect(ran.logs['run']).toMatch(/HARNESS_TARGET_START_FAILED: .*exited with code 4 .*\n {2}\| listening nowhere/s);
    expect(ran.summary).toMatch(/^## cpr-conformance: no report \(exit 2\)/);
    expect(ran.statuses['Verdict']).toBe(2);
  });
});
