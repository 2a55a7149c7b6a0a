// Targets: what is tested and how it is reached (harness/ADAPTERS.md).
export { CAPABILITIES, type AppRoleConfig, type Capability, type HttpRoleConfig, type KeyCredential, type RoleCredentials, type TargetConfig } from './config.ts';
export { targetTemplate } from './init.ts';
export { loadTargetFile, parseTarget } from './load.ts';
export { preflight, type PreflightOptions } from './preflight.ts';
export { embeddedTarget, openTarget, targetFromUrl, type OpenOptions, type Target, type UrlTargetOptions } from './target.ts';
