#!/usr/bin/env node
// Launcher: registers tsx so the TypeScript sources run without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../harness/cli/main.ts');
// Exit explicitly: a stray handle (an unreachable target's socket, say) must never
// keep the command alive after it has decided its result.
process.exit(await main(process.argv.slice(2)));
