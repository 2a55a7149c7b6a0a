// The suite's version is package.json's; the spec and profile versions it certifies against.
import { readFileSync } from 'node:fs';
import { PROFILE_ID } from '../profile/version.ts';

export const SUITE_VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
export const SPEC_VERSIONS = { cpr: 'CPR-1.0 (1.0.0 Draft)', cpp: 'CPP-001 (1.0.0 Draft)' } as const;

/** The line `cpr-conformance --version` prints. */
export function versionLine(): string {
  return `cpr-conformance ${SUITE_VERSION} (profile ${PROFILE_ID}; ${SPEC_VERSIONS.cpr}, ${SPEC_VERSIONS.cpp}; node ${process.version})`;
}
