// Strict option parsing on node:util parseArgs: an unknown flag or a bad value is
// a USAGE_ERROR that names the flag and points at --help.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../text.ts';
import { HarnessError } from './errors.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;

export function parse(command: string, argv: string[], options: Options): Record<string, string | boolean | (string | boolean)[] | undefined> {
  return parseCommand(command, argv, options, false).values;
}

/** parse() for a command that also takes positional arguments (subcommands, files). */
export function parseCommand<T extends Options>(command: string, argv: string[], options: T, allowPositionals = true) {
  const all = { ...options, help: { type: 'boolean', short: 'h' } } as const;
  try {
    return parseArgs({ args: argv, options: all, strict: true as const, allowPositionals });
  } catch (error) {
    let message = (error as Error).message.replace(/\. To specify.*$/s, '');
    const unknown = /^Unknown option '(-{1,2}[^']*)'/.exec(message)?.[1];
    if (unknown !== undefined) message += didYouMean(unknown.split('=')[0]!, Object.keys(all).map((name) => `--${name}`));
    throw new HarnessError('USAGE_ERROR', message, `see: cpr-conformance ${command} --help`);
  }
}

export function integerOption(command: string, name: string, value: unknown, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < min || n > max) {
    throw new HarnessError('USAGE_ERROR', `--${name} takes a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`, `see: cpr-conformance ${command} --help`);
  }
  return n;
}
