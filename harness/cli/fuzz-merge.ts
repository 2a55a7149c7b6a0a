// `cpr-conformance fuzz merge DIR...`: joins the shards of a campaign
// (fuzz --shard i/n), each finding once by its cause (harness/fuzz/shards.ts).
import { join, resolve } from 'node:path';
import { campaignLines, mergeFuzzShards, writeMergedCampaign } from '../fuzz/shards.ts';
import { terminalOf } from '../runner/terminal.ts';
import { optionsHelp, parseCommand, type Declared } from './args.ts';
import { EXIT, HarnessError } from './errors.ts';
import { processIo, type CommandIo } from '../io.ts';

/** fuzz merge's options: they parse the command line and write its --help. */
export const FUZZ_MERGE_OPTIONS = {
  out: { type: 'string', value: 'DIR', help: 'where to write (default reports/fuzz-merged)' },
} as const satisfies Readonly<Record<string, Declared>>;

const MERGE_HELP = `Usage: cpr-conformance fuzz merge DIR... [--out DIR]

Joins the --out folders of the shards of one fuzzing campaign (fuzz --shard
i/n, the same --seed, --lanes and budget) into --out DIR: fuzz.json (every
shard's figures and the findings), summary.md (for a CI step summary) and the
crash file and regression scenario of every minimal sequence kept. Findings
are merged by their cause (the requirement, the kind of request, what differed
and how), not by their command sequences: a finding names every shard that
found it and lists every distinct minimal sequence that showed it, the
representative first (one that failed again when replayed, then the
shortest).

It refuses, writing nothing (FUZZ_SHARDS_MISSING, exit 2), until every shard
of the campaign reported: a folder without fuzz-shard.json (its shard ended
in error or never ran) or a shard not given.

Options:
${optionsHelp(FUZZ_MERGE_OPTIONS)}

Exit codes: 0 nothing found, 1 findings, 2 usage error or shards missing.
`;

export async function fuzzMerge(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const { values, positionals } = parseCommand('fuzz merge', argv, FUZZ_MERGE_OPTIONS);
  if (values.help) {
    io.stdout.write(MERGE_HELP);
    return 0;
  }
  if (positionals.length === 0) throw new HarnessError('USAGE_ERROR', 'fuzz merge needs the folder of each shard', 'e.g. cpr-conformance fuzz merge out/fuzz-1 out/fuzz-2 --out out/fuzz');
  const merged = mergeFuzzShards(positionals);
  const out = resolve(values.out ?? join('reports', 'fuzz-merged'));
  const written = writeMergedCampaign(out, merged);
  const terminal = terminalOf(io);
  for (const line of campaignLines(merged.campaign)) terminal.line(line);
  terminal.line(`merged: ${written.json} (and summary.md${merged.campaign.findings.length > 0 ? ', the crash files and regression scenarios' : ''})`);
  return merged.campaign.findings.length > 0 ? EXIT.nonConformant : EXIT.conformant;
}
