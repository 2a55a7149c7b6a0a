// The field coverage table: every field of the inventory (fields.ts), every
// class it has, and the properties that generate that class and check the
// outcome (their `covers`). Computed from the code; README.md's "Field
// coverage" section is this table, written by `npm run coverage-table` and
// checked by a test, which also fails while any (field, class) has nothing
// covering it.
import { readmeWith as readmeSectionWith, readReadme, writeReadme, type ReadmeSection } from '../readme-sections.ts';
import { FIELD_CLASSES, type FieldClassId } from '../../generators/classes/catalogue.ts';
import { fieldInventory, type Field } from './fields.ts';
import type { PropertyDefinition } from './types.ts';

interface CoverageRow {
  readonly field: Field;
  readonly class: FieldClassId;
  /** The covering properties, with the condition on the target when there is one. */
  readonly by: readonly { readonly property: string; readonly when?: string }[];
}

export function coverageRows(properties: readonly PropertyDefinition[], fields: readonly Field[] = fieldInventory()): CoverageRow[] {
  return fields.flatMap((field) =>
    field.classes.map((cls) => ({
      field,
      class: cls,
      by: properties.flatMap((p) => (p.covers ?? []).filter((c) => c.field === field.id && c.class === cls).map((c) => ({ property: p.id, ...(c.when !== undefined ? { when: c.when } : {}) }))),
    })),
  );
}

/** Pairs a property claims to cover that the inventory does not have (a renamed field, a class the field lacks). */
export function strayCovers(properties: readonly PropertyDefinition[], fields: readonly Field[] = fieldInventory()): string[] {
  return properties.flatMap((p) =>
    (p.covers ?? []).filter((c) => !fields.some((f) => f.id === c.field && f.classes.includes(c.class))).map((c) => `${p.id} covers ${c.field} × ${c.class}, which the inventory does not have`),
  );
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The Markdown table of README.md's "Field coverage" section. */
export function coverageMarkdown(rows: readonly CoverageRow[], inventory: readonly Field[] = fieldInventory()): string {
  const fields = [...new Set(rows.map((r) => r.field))];
  const pairs = rows.length;
  const covered = rows.filter((r) => r.by.length > 0).length;
  const lines = [
    `${inventory.length} fields in the inventory, ${fields.length} with classes: ${pairs} (field, class) pairs, ${covered} covered. Classes: ${FIELD_CLASSES.map((c) => `\`${c.id}\``).join(', ')} (generators/classes/catalogue.ts says what each holds).`,
    '',
    '| field | kind | class → covered by |',
    '|---|---|---|',
    ...fields
      .filter((f) => f.classes.length > 0)
      .map((f) => {
        const classes = rows
          .filter((r) => r.field === f)
          .map((r) => `${r.class} → ${r.by.length === 0 ? '**nothing**' : r.by.map((b) => (b.when ? `${b.property} (${b.when})` : b.property)).join(', ')}`);
        return `| \`${cell(f.id)}\` | ${f.kind} | ${cell(classes.join('; '))} |`;
      }),
  ];
  return lines.join('\n');
}

/** README.md's "Field coverage" section (harness/readme-sections.ts). */
const FIELD_COVERAGE: ReadmeSection = { title: 'Field coverage', name: 'field-coverage', command: 'npm run coverage-table' };

/** README.md with the "Field coverage" table replaced by `table`; throws when the markers are missing. */
export function readmeWith(table: string, readme: string = readReadme()): string {
  return readmeSectionWith(FIELD_COVERAGE, table, readme);
}

export { readReadme, writeReadme };
