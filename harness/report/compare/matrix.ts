// Several implementations in one requirement matrix: each report's requirements
// matched by ID and grouped by spec section, and where one passed what another
// failed (the spec may be read two ways) marked. Pure functions over the result model.
import type { Level } from '../../../profile/registry.ts';
import { sectionGroups } from '../html.ts';
import type { Report, RequirementResult } from '../model.ts';
import { cellOf, OBSERVED_FAILURE, verdictRules, type CompareInput } from './input.ts';

export interface ComparedImplementation extends CompareInput {
  /** The target's name, made unique among the inputs ("name (2)"). */
  readonly name: string;
  /** A file name for its badge, unique among the inputs. */
  readonly slug: string;
}

interface ComparedRequirement {
  readonly id: string;
  readonly level: Level;
  readonly sections: readonly string[];
  readonly summary: string;
  /** One per implementation, in input order. */
  readonly results: readonly (RequirementResult | undefined)[];
  /** Observed both ways: at least one implementation passed it and at least one failed it (or warned). */
  readonly disagree: boolean;
  /** The statuses are not all the same (a disagreement, or a difference in what was exercised). */
  readonly differ: boolean;
}

export interface Comparison {
  readonly implementations: readonly ComparedImplementation[];
  /** Requirements grouped by their first spec section, in section order (as report.html groups them). */
  readonly sections: readonly (readonly [string, readonly ComparedRequirement[]])[];
  /** Why the comparison may not compare like with like (different suite or profile versions, say). */
  readonly warnings: readonly string[];
}

export function compareReports(inputs: readonly CompareInput[]): Comparison {
  const names = unique(inputs.map((input) => (input.report.run.target.name.trim() === '' ? input.source : input.report.run.target.name)), (name, n) => `${name} (${n})`);
  const slugs = unique(names.map(slugOf), (slug, n) => `${slug}-${n}`);
  const implementations = inputs.map((input, i) => ({ ...input, name: names[i]!, slug: slugs[i]! }));
  const byId = inputs.map((input) => new Map(input.report.requirements.map((r) => [r.id, r])));
  // Every requirement any input has, each once: the first report's own result stands for it when grouping.
  const representative = new Map<string, RequirementResult>();
  for (const input of inputs) for (const r of input.report.requirements) if (!representative.has(r.id)) representative.set(r.id, r);
  const sections = sectionGroups([...representative.values()]).map(([section, group]) => {
    const rows = group.map((r): ComparedRequirement => {
      const results = byId.map((map) => map.get(r.id));
      const cells = results.map(cellOf);
      return {
        id: r.id,
        level: r.level,
        sections: r.sections,
        summary: r.summary,
        results,
        disagree: cells.includes('passed') && cells.some((c) => OBSERVED_FAILURE.includes(c)),
        differ: new Set(cells).size > 1,
      };
    });
    return [section, rows] as const;
  });
  return { implementations, sections, warnings: comparisonWarnings(implementations) };
}

/** The requirements implementations disagree on, in section order. */
export function disagreements(comparison: Comparison): ComparedRequirement[] {
  return comparison.sections.flatMap(([, rows]) => rows.filter((r) => r.disagree));
}

function unique(values: readonly string[], numbered: (value: string, n: number) => string): string[] {
  const used = new Set<string>();
  return values.map((value) => {
    let candidate = value;
    for (let n = 2; used.has(candidate); n++) candidate = numbered(value, n);
    used.add(candidate);
    return candidate;
  });
}

/** Lower-case letters, digits and dashes only: never a path separator, a dot segment or a hidden file. */
function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'implementation' : slug;
}

function comparisonWarnings(implementations: readonly ComparedImplementation[]): string[] {
  const warnings: string[] = [];
  const differing = (what: string, valueOf: (report: Report) => string, why: string) => {
    const groups = new Map<string, string[]>();
    for (const i of implementations) groups.set(valueOf(i.report), [...(groups.get(valueOf(i.report)) ?? []), i.name]);
    if (groups.size > 1) warnings.push(`the inputs ran different ${what}: ${[...groups].map(([value, names]) => `${value} (${names.join(', ')})`).join('; ')}; ${why}`);
  };
  const apples = 'their requirements and tests may differ, so the comparison is apples to oranges';
  differing('suite versions', (r) => r.run.suite_version, apples);
  differing('profile versions', (r) => r.run.profile_version, apples);
  differing('verdict rules', verdictRules, 'a failure decides in one and is a warning in another');
  for (const i of implementations) if (i.report.run.incomplete) warnings.push(`the run of ${i.name} was cut short: its results are partial`);
  return warnings;
}
