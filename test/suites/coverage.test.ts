import { describe, expect, it } from 'vitest';
import { PROPERTIES } from '../../harness/properties/catalogue.ts';
import { loadSuites } from '../../harness/scenarios/load.ts';
import { loadRegistry } from '../../profile/registry.ts';

// Issue 4's contract: every requirement of the registry is proved by at least one
// scenario (named in its requirements, or as the requirement of one of its checks)
// or property.
describe('scenario coverage of the requirement registry', () => {
  const scenarios = loadSuites().flatMap((s) => s.scenarios);
  const covered = new Set([
    ...scenarios.flatMap((s) => [...s.requirements, ...s.steps.flatMap((st) => st.expect.flatMap((c) => (c.requirement ? [c.requirement] : [])))]),
    ...PROPERTIES.flatMap((p) => p.requirements),
  ]);

  it('covers every requirement that is not retired', () => {
    const uncovered = loadRegistry()
      .filter((r) => !r.retired && !covered.has(r.id))
      .map((r) => `${r.id} (${r.level}, ${r.sections.join(' ') || r.profile_sections?.join(' ')}): ${r.summary}`);
    expect(uncovered, `uncovered requirements:\n${uncovered.join('\n')}`).toEqual([]);
  });

});
