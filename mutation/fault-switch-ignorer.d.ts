// Types of the plain-JavaScript Stryker plugin beside this file, for the tests that read its reason.
/** The reason Stryker records for each mutant the plugin ignores. */
export declare const REASON: string;
export declare const strykerPlugins: readonly { readonly kind: string; readonly name: string; readonly value: unknown }[];
/** True for `faults.has(...)` or `faults.hasAny(...)` (on `faults` or any `<object>.faults`): a fault switch. */
export declare function isFaultSwitch(node: unknown): boolean;
/** The reason to ignore the node at `path` (a Babel NodePath), or undefined to let Stryker mutate it. */
export declare function shouldIgnore(path: { readonly node: unknown; readonly parent?: unknown; readonly key?: unknown }): string | undefined;
