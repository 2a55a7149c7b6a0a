// Freezing a value and everything it holds, for data handed out read-only
// (the registry, a target's facts). An object frozen already is not walked again.
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
