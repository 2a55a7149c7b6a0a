// Dotted paths into a JSON value, as a tamper step's set and delete name them.

function segments(path: string): string[] {
  return path.split('.').filter((s) => s.length > 0);
}

export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const parts = segments(path);
  let node: Record<string, unknown> = root;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

export function deletePath(root: Record<string, unknown>, path: string): void {
  const parts = segments(path);
  let node: unknown = root;
  for (const part of parts.slice(0, -1)) node = (node as Record<string, unknown> | undefined)?.[part];
  if (node && typeof node === 'object') delete (node as Record<string, unknown>)[parts.at(-1)!];
}
