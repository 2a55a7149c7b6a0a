// Types of the plain-JavaScript Stryker plugin beside this file, for the tests that read its reason.
/** The reason Stryker records for each mutant the plugin ignores. */
export declare const REASON: string;
export declare const strykerPlugins: readonly { readonly kind: string; readonly name: string; readonly value: unknown }[];
