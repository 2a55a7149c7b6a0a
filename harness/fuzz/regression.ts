// The regression scenario of a counterexample: the run's script (world.script)
// as a scenario file in the suites/ language (suites/README.md), with explicit
// steps (clock, provisioning, keygen, issue/renew/redeem/status/clock/cancel and
// resends) and the checks the model predicted. Against the faulty implementation
// it fails where the fuzzer saw the difference; against a correct one it passes.
// `run --scenario FILE` and `replay FILE` run it.
import YAML from 'yaml';
import { findRequirement, sectionsOfAll, type Role } from '../../profile/registry.ts';
import { toAmount } from '../../profile/index.ts';
import { parseSuite } from '../scenarios/load.ts';
import type { Suite } from '../scenarios/types.ts';
import { brief, type MismatchDetail } from './mismatch.ts';
import { FROZEN_AT, KEY, type World } from './world.ts';

interface RegressionInput extends FindingStory {
  /** The run whose script is written: it ended with the failure. */
  readonly world: World;
}

/** Whether a regression scenario fails where its finding was made, and what it did there. */
export interface Reproduction {
  readonly reproduces: boolean;
  readonly note: string;
}

/** Scenario ID of the n-th scenario of a seed (suites/scenario.schema.json pattern). */
export function regressionId(seed: number, n = 1): string {
  return `FUZZ-${seed}-${String(n).padStart(3, '0')}`;
}

/** The scenario file's text, validated by loading it as `run --scenario` would (parseSuite, which throws SCENARIO_INVALID). */
export function regressionYaml(input: RegressionInput, file = `regression-${input.seed}.yaml`): { readonly text: string; readonly suite: Suite } {
  const text = regressionText(input, file);
  return { text, suite: parseSuite(text, file) };
}

/** The scenario file's text, not validated. */
export function regressionText(input: RegressionInput, file = `regression-${input.seed}.yaml`): string {
  const { world, failure } = input;
  const script = world.script.map((s) => ({ ...s.fields, ...(s.expect.length > 0 ? { expect: s.expect } : {}) }));
  // Only the keys the steps name (a key name is a word of its own in a field or a template).
  const text = JSON.stringify(script);
  const keys = world.generatedKeys().filter((name) => new RegExp(`\\b${name}\\b`).test(text));
  const steps = [
    { do: 'clock', freeze: true, as: FROZEN_AT, note: 'fresh state, as each model run starts: the clock frozen, a new Principal and the other accounts the finding needs' },
    { do: 'provision-principal', key: KEY.principal, balance: toAmount(world.principalBalance) },
    ...(world.unprovisioned.has(KEY.stranger) ? [] : [{ do: 'provision-principal', key: KEY.stranger, balance: '0' }]),
    ...[...world.redeemerLevels].map(([key, level]) => ({ do: 'provision-redeemer', key, identity_level: level })),
    ...(keys.length > 0 ? [{ do: 'keygen', names: keys, note: 'bearer keys, and keys nobody registered (outsider, and the accounts this finding does not need)' }] : []),
    ...script,
  ];
  const named = [failure.requirement, ...world.script.flatMap((s) => s.expect.map((c) => c.requirement as string | undefined))].filter((r): r is string => r !== undefined);
  const needs = ['provision', 'clock', 'balance', ...(world.script.some((s) => s.fields.do === 'cancel') ? ['cancel'] : [])];
  return regressionDocument({ ...input, role: 'operator', requirements: [...new Set(named)], needs, steps }, file);
}

/** A finding as its regression scenario tells it. */
export interface FindingStory {
  readonly seed: number;
  readonly failure: MismatchDetail;
  readonly flaky: boolean;
  /** The minimal command sequence, for the scenario's info. */
  readonly commands: readonly string[];
  readonly reproduce: string;
  /** The crash file beside it, named when the scenario does not reproduce the finding. */
  readonly crashFile?: string;
  /** What became of the scenario when it ran against the target before being written. */
  readonly reproduction?: Reproduction;
}

/** What a regression scenario is made of, whatever role's fuzzer wrote it. */
export interface RegressionFrame extends FindingStory {
  readonly role: Role;
  /** Every requirement the steps' checks name, the finding's first. */
  readonly requirements: readonly string[];
  /** The test-control capabilities the steps use. */
  readonly needs: readonly string[];
  readonly steps: readonly unknown[];
}

/** The scenario file's text for a finding: its one scenario, the finding's story in its info. */
export function regressionDocument(frame: RegressionFrame, file = `regression-${frame.seed}.yaml`): string {
  const { failure, seed } = frame;
  const requirements = [...new Set([failure.requirement, ...frame.requirements])];
  const expected = brief(failure.expected);
  const actual = brief(failure.actual);
  const unreproduced = frame.reproduction?.reproduces === false;
  const doc = {
    suite: `fuzz-${seed}`,
    title: `Fuzzer regression, seed ${seed}${unreproduced ? ' (does not reproduce the finding)' : ''}`,
    ...(unreproduced ? { reproduces: false } : {}),
    sections: sectionsOfIds(requirements),
    role: frame.role,
    info: [
      ...(unreproduced
        ? [`DOES NOT REPRODUCE THE FINDING: ${frame.reproduction!.note}. Its passing proves nothing; the crash file does reproduce it: cpr-conformance replay ${frame.crashFile ?? `crash-${seed}.json`}.`]
        : frame.reproduction
          ? [`Checked before it was written: ${frame.reproduction.note}.`]
          : []),
      `Written by the stateful fuzzer (${frame.reproduce}).`,
      frame.flaky
        ? 'FLAKY: the shrunk counterexample did not fail again when replayed against fresh state; this is the run that failed.'
        : 'The shrunk counterexample failed again when replayed against fresh state.',
      `Minimal command sequence: ${frame.commands.join('; ')}.`,
      `${failure.command}: ${failure.what}: the model expected ${expected}, the target answered ${actual}${failure.rule ? ` (${failure.rule})` : ''}.`,
    ].join('\n'),
    scenarios: [
      {
        id: regressionId(seed),
        title: truncate(`${failure.command}: ${failure.what} is ${expected} (the fuzzer saw ${actual})`, 200),
        requirements,
        level: findRequirement(failure.requirement)?.level ?? 'MUST',
        needs: frame.needs,
        info: `The model's predictions for ${frame.commands.length} command(s), shrunk by fast-check and reduced to what the finding's cause needs; each check names the rule it proves.`,
        steps: frame.steps,
      },
    ],
  };
  return `# Fuzzer regression scenario: cpr-conformance replay ${file}\n${YAML.stringify(doc, { lineWidth: 0 })}`;
}

function sectionsOfIds(requirements: readonly string[]): string[] {
  const sections = sectionsOfAll(requirements.flatMap((id) => findRequirement(id) ?? []));
  return sections.length > 0 ? sections : ['§7.1'];
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
