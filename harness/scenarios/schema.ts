// Builds suites/scenario.schema.json from the vocabulary (vocabulary.ts).
import { CAPABILITIES } from '../../profile/control.ts';
import { LEVELS, ROLES } from '../../profile/registry.ts';
import { SIGNING_TAGS } from '../../profile/signing.ts';
import { ACTIONS, CHECKS } from './vocabulary.ts';

const ID = '^[A-Z][A-Z0-9]*(-[A-Z][A-Z0-9]*)*-[0-9]+$';

export function scenarioSchema(): Record<string, unknown> {
  const stepCommon = {
    do: {},
    as: { $ref: '#/$defs/name' },
    expect: { $ref: '#/$defs/expectations' },
    setup: { anyOf: [{ const: true }, { $ref: '#/$defs/requirementId' }] },
    note: { type: 'string' },
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://cpr-conformance.dev/schemas/scenario.schema.json',
    title: 'cpr-conformance scenario file',
    description: 'One file per spec section or rule family; see suites/README.md. Generated from harness/scenarios/vocabulary.ts: edit that, then run `npm run scenario-schema`.',
    type: 'object',
    additionalProperties: false,
    required: ['suite', 'title', 'sections', 'role', 'scenarios'],
    properties: {
      suite: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
      title: { type: 'string', minLength: 1 },
      sections: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^(PROFILE )?§[0-9]+(\\.[0-9]+)*$' } },
      role: { $ref: '#/$defs/role' },
      info: { type: 'string' },
      reproduces: { const: false, description: 'A fuzzer regression that did not fail against the target it was found on: its passing proves nothing (replay the crash file).' },
      scenarios: { type: 'array', minItems: 1, items: { $ref: '#/$defs/scenario' } },
    },
    $defs: {
      name: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      keyName: { anyOf: [{ $ref: '#/$defs/name' }, { type: 'string', pattern: '\\$\\{' }] },
      template: { type: 'string' },
      role: { enum: [...ROLES] },
      level: { enum: [...LEVELS] },
      code: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' },
      requirementId: { type: 'string', pattern: ID },
      messageType: { enum: Object.keys(SIGNING_TAGS) },
      capability: { enum: [...CAPABILITIES] },
      scenario: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'title', 'requirements', 'level', 'steps'],
        properties: {
          id: { type: 'string', pattern: '^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*-[0-9]{3}$' },
          title: { type: 'string', minLength: 1 },
          requirements: { type: 'array', minItems: 1, items: { $ref: '#/$defs/requirementId' } },
          level: { $ref: '#/$defs/level' },
          role: { $ref: '#/$defs/role' },
          needs: { type: 'array', uniqueItems: true, items: { $ref: '#/$defs/capability' } },
          adapters: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['http', 'module', 'process'] } },
          info: { type: 'string' },
          steps: { type: 'array', minItems: 1, items: { $ref: '#/$defs/step' } },
        },
      },
      step: {
        type: 'object',
        required: ['do'],
        properties: { do: { enum: Object.keys(ACTIONS) } },
        allOf: Object.entries(ACTIONS).map(([name, spec]) => ({
          if: { properties: { do: { const: name } }, required: ['do'] },
          then: {
            properties: { ...stepCommon, ...spec.params, do: { const: name } },
            required: ['do', ...spec.required],
            additionalProperties: false,
            ...('requireOneOf' in spec ? { oneOf: spec.requireOneOf.map((set) => ({ required: [...set] })) } : {}),
          },
        })),
      },
      expectations: { type: 'array', minItems: 1, items: { $ref: '#/$defs/check' } },
      check: {
        type: 'object',
        minProperties: 1,
        properties: {
          on: {},
          requirement: { $ref: '#/$defs/requirementId' },
          note: { type: 'string' },
          ...Object.fromEntries(Object.entries(CHECKS).map(([name, spec]) => [name, spec.arg])),
        },
        additionalProperties: false,
        // Exactly one named check per entry.
        oneOf: Object.keys(CHECKS).map((name) => ({ required: [name] })),
      },
    },
  };
}

export function scenarioSchemaText(): string {
  return `${JSON.stringify(scenarioSchema(), null, 2)}\n`;
}
