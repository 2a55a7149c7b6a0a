// Strict option parsing on node:util parseArgs: an unknown flag or a bad value is
// a USAGE_ERROR that names the flag and points at --help.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HarnessError } from './errors.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;

export function parse(command: string, argv: string[], options: Options): Record<string, string | boolean | (string | boolean)[] | undefined> {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', (error as Error).message.replace(/\. To specify.*$/s, ''), `see: cpr-conformance ${command} --help`);
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
