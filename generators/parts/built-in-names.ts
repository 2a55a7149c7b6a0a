// Member names every JavaScript object already has (Object.prototype's): a
// copy made member by member by assignment loses `__proto__` (it sets the
// copy's prototype instead), and a lookup by name in a plain object (a token
// store, a table of known values) finds the others where there is no such
// member. JSON gives them no meaning: they are names like any other.
// Internal: not re-exported from generators/index.ts.
export const BUILT_IN_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf', '__defineGetter__'] as const;
