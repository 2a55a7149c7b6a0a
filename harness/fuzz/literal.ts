// Commands and values as data. A value written into a regression scenario as it is: scenario strings are
// templates (`${...}`), so text that holds `${` is written with its `$` as an
// expression of its own (`${'$'}{`), which renders back to the same text.
// Object keys are never rendered, so only strings need it.

/** `value` as a scenario writes it so that rendering it gives `value` back. */
export function literal<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('${', "${'$'}{") as T;
  if (Array.isArray(value)) return value.map(literal) as T;
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literal(v)])) as T;
  return value;
}

/**
 * A generated command as the data a crash file holds: plain objects, no
 * undefined members (fast-check may build objects without a prototype). A run
 * and its replay from the crash file then compare the very same values.
 */
export function asData<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
