// JSON Pointers of the field inventory (RFC 6901, without escapes: no member
// name of the profile holds "/" or "~"), read and written on plain JSON values.
type Json = Record<string, unknown>;

const parts = (pointer: string): string[] => pointer.split('/').slice(1);

export function getAt(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const part of parts(pointer)) node = typeof node === 'object' && node !== null ? (node as Json)[part] : undefined;
  return node;
}

/** A copy of `doc` with `value` at `pointer` (objects created on the way; undefined deletes the member). */
export function withAt<T>(doc: T, pointer: string, value: unknown): T {
  const copy = structuredClone(doc) as unknown as Json;
  const names = parts(pointer);
  if (names.length === 0) return value as T;
  let node = copy;
  for (const part of names.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Json;
  }
  const last = names.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy as unknown as T;
}
