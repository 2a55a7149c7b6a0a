// `cpr-conformance init [FILE]`: writes a commented target-file template.
import { existsSync, writeFileSync } from 'node:fs';
import { targetTemplate } from '../target/init.ts';
import { optionsHelp, parse, type Declared } from './args.ts';
import { HarnessError } from './errors.ts';
import { processIo, type CommandIo } from '../io.ts';

/** init's options: they parse the command line and write its --help. */
export const INIT_OPTIONS = {
  force: { type: 'boolean', help: 'overwrite FILE if it exists' },
} as const satisfies Readonly<Record<string, Declared>>;

const INIT_HELP = `Usage: cpr-conformance init [FILE] [--force]

Writes a commented target-file template (default: cpr-target.yaml) describing
each role's adapter, base URL, TLS trust, test-control token, capabilities and
credentials. Fill it in, then: cpr-conformance run --target FILE

Options:
${optionsHelp(INIT_OPTIONS)}
`;

export async function init(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const files = argv.filter((a) => !a.startsWith('-'));
  const values = parse('init', argv.filter((a) => a.startsWith('-')), INIT_OPTIONS);
  if (values.help) {
    io.stdout.write(INIT_HELP);
    return 0;
  }
  if (files.length > 1) throw new HarnessError('USAGE_ERROR', 'init takes at most one FILE', 'see: cpr-conformance init --help');
  const file = files[0] ?? 'cpr-target.yaml';
  if (existsSync(file) && !values.force) throw new HarnessError('USAGE_ERROR', `${file} exists`, 'use --force to overwrite it, or name another file');
  writeFileSync(file, targetTemplate());
  io.stdout.write(`wrote ${file}: fill in each role, then run: cpr-conformance run --target ${file}\n`);
  return 0;
}
