// Strict option parsing on node:util parseArgs: an unknown flag or a bad value is
// a USAGE_ERROR that names the flag and points at --help.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../text.ts';
import { HarnessError } from './errors.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;

/** An option as a command declares it: how it parses (node:util parseArgs ignores the rest) and what --help says of it. */
export type Declared = Options[string] & {
  readonly help: string;
  /** The name of its value in --help ("DIR"), for a string option. */
  readonly value?: string;
};

/** The column where --help's descriptions start, and its width. */
const COLUMN = 24;
const WIDTH = 80;

/** The "Options:" lines of a command's --help, from its declarations: one entry each, then -h, --help. */
export function optionsHelp(options: Readonly<Record<string, Declared>>): string {
  return [optionLines(options), helpEntry('  -h, --help', 'show this help')].filter((text) => text !== '').join('\n');
}

/** One --help entry for each declared option, in declaration order. */
export function optionLines(options: Readonly<Record<string, Declared>>): string {
  return Object.entries(options)
    .map(([name, o]) => helpEntry(`  --${name}${o.value !== undefined ? ` ${o.value}` : ''}`, `${o.help}${o.multiple ? '; repeatable' : ''}`))
    .join('\n');
}

/** A flag and its description as --help shows them: the description from column 25, lines of at most 80. */
export function helpEntry(flag: string, text: string): string {
  const lines = [flag];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1]!;
    if (last.length < COLUMN) lines[lines.length - 1] = `${last.padEnd(COLUMN - 1)} ${word}`;
    else if (last.length + 1 + word.length <= WIDTH) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(`${' '.repeat(COLUMN - 1)} ${word}`);
  }
  return lines.join('\n');
}

/** The command's flags, typed by their declarations (a string flag reads as string | undefined, a multiple one as string[] | undefined). */
export function parse<T extends Options>(command: string, argv: string[], options: T) {
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
    if (unknown !== undefined) message += meant(unknown.split('=')[0]!, Object.keys(all).map((name) => `--${name}`));
    throw new HarnessError('USAGE_ERROR', message, `see: cpr-conformance ${command} --help`);
  }
}

/**
 * Flags other tools spell otherwise, each group one meaning: the project says
 * --report-dir for a run's reports and --out for what other commands write,
 * --time for a fuzzing budget and --time-limit for a run's deadline.
 */
export const SYNONYMS: readonly (readonly string[])[] = [
  ['--report-dir', '--out', '--output', '--output-dir', '--out-dir', '--outdir', '--dir', '-o'],
  ['--time', '--time-limit', '--seconds', '--duration'],
  ['--concurrency', '--jobs', '-j', '--parallel', '--workers'],
];

/** " (did you mean X?)" for a misspelt flag, or for another tool's name of one the command has; or nothing. */
export function meant(typed: string, known: readonly string[]): string {
  const spelt = didYouMean(typed, known);
  if (spelt !== '') return spelt;
  const same = SYNONYMS.find((group) => group.includes(typed))?.filter((flag) => flag !== typed && known.includes(flag)) ?? [];
  return same.length === 0 ? '' : ` (did you mean ${same.join(' or ')}?)`;
}

export function integerOption(command: string, name: string, value: unknown, min: number, max: number, hint = `see: cpr-conformance ${command} --help`): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < min || n > max) {
    throw new HarnessError('USAGE_ERROR', `--${name} takes a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`, hint);
  }
  return n;
}

/** Most shards a run or a campaign is split into. */
const MAX_SHARDS = 1000;

/** A `--shard i/n` value, checked: 1 <= i <= n <= 1000. */
export function shardOption(command: string, value: unknown): { readonly index: number; readonly count: number; readonly text: string } | undefined {
  if (value === undefined) return undefined;
  const m = typeof value === 'string' ? /^(\d+)\/(\d+)$/.exec(value) : null;
  const [index, count] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  if (!m || index < 1 || index > count || count > MAX_SHARDS) {
    throw new HarnessError('USAGE_ERROR', `--shard takes i/n with 1 <= i <= n <= ${MAX_SHARDS}, not ${JSON.stringify(value)}`, `e.g. --shard 2/4 for the second of four shards; see: cpr-conformance ${command} --help`);
  }
  return { index, count, text: `${index}/${count}` };
}
