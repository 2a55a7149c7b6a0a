// `cpr-conformance serve`: the reference implementation on loopback.
import { readFileSync, writeFileSync } from 'node:fs';
import YAML from 'yaml';
import { PROFILE_ID } from '../../profile/index.ts';
import { MUTANTS, describeMutants } from '../../reference/mutants.ts';
import { PolicyError } from '../../reference/operator/policy.ts';
import { startReference, type ReferenceOptions } from '../../reference/start.ts';
import { integerOption, optionsHelp, parse, type Declared } from './args.ts';
import { HarnessError } from './errors.ts';
import { processIo, type CommandIo } from '../io.ts';

/** serve's options: they parse the command line and write its --help. */
export const SERVE_OPTIONS = {
  host: { type: 'string', value: 'HOST', help: 'address to bind (default 127.0.0.1); an IPv6 address such as ::1 gives https://[::1]:PORT' },
  'base-path': { type: 'string', value: 'PATH', help: 'serve every route under PATH, percent-encoded as in a URL, e.g. /shops/acme%20gmbh or /pay/acme(eu) (default: the root)' },
  port: { type: 'string', value: 'N', help: 'HTTPS port (default 8443; 0 picks a free port)' },
  'plaintext-port': { type: 'string', value: 'N', help: 'plaintext port that refuses to serve CPRs, to test spec §5.1.4 (default 8080; 0 picks a free port)' },
  'no-plaintext': { type: 'boolean', help: 'do not open the plaintext port' },
  'ca-out': { type: 'string', value: 'FILE', help: 'also write the CA certificate (PEM) to FILE' },
  'freeze-clock': { type: 'boolean', help: 'start with the clock frozen (test control moves it)' },
  seed: { type: 'string', value: 'TEXT', help: "derive the Operator's signing key and pack ids from TEXT: two servers with one seed give the same answers to the same requests (benchmark replays)" },
  'token-lifetime': { type: 'string', value: 'S', help: 'retrieval token lifetime in seconds (default 300)' },
  'request-validity': { type: 'string', value: 'S', help: 'CPR validity window in seconds (default 900)' },
  policy: { type: 'string', value: 'FILE', help: 'JSON or YAML with Operator Policy members to override (max_amount, max_chain_depth, expiry_min_seconds, expiry_max_seconds, required_identity_level, request_window_seconds)' },
  'control-token': { type: 'string', value: 'TOKEN', help: 'require "Authorization: Bearer TOKEN" on /_control' },
  'no-control': { type: 'boolean', help: 'disable the test-control interface' },
  'no-lease': { type: 'boolean', help: 'offer no test-control lease (PROFILE.md §12): any client may move the clock at any time, as with an implementation without one' },
  mutant: { type: 'string', value: 'NAME', help: 'switch one fault on (see --list-mutants): a deliberately non-conformant reference, to see what the suite (a suite mutant) or the fuzzer (a fuzzer mutant) reports' },
  'list-mutants': { type: 'boolean', help: 'list the mutants and exit: name, role, who must catch it (suite: selftest requires the suite to kill it; fuzzer: only cpr-conformance fuzz must find it), what is wrong' },
  json: { type: 'boolean', help: 'print the start-up facts as one JSON line' },
} as const satisfies Readonly<Record<string, Declared>>;

const SERVE_HELP = `Usage: cpr-conformance serve [options]

Starts the reference implementation of all three roles (payee system, paying
application's retrieval peer, cash-pack operator) on loopback, prints its URLs,
trust material and clock mode, and runs until interrupted (Ctrl-C).

One HTTPS origin serves every role: GET /cpr/<token>, the four /v1/cashpack
endpoints, the two /.well-known documents and the /_control test-control
interface (PROFILE.md §12). With --base-path every one of them is under that
path, which the payee's base URL (and the endpoint of its URIs) then ends with.
Its certificate comes from a CA generated at start-up and names localhost,
127.0.0.1, ::1 and the --host address; clients trust that CA (--ca-out writes
it where you want it).

Options:
${optionsHelp(SERVE_OPTIONS)}
`;

export async function serve(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const values = parse('serve', argv, SERVE_OPTIONS);
  if (values.help) {
    io.stdout.write(SERVE_HELP);
    return 0;
  }
  if (values['list-mutants']) {
    io.stdout.write(describeMutants());
    return 0;
  }
  const options = referenceOptions(values);
  const reference = await startOrExplain(options);
  const caFile = values['ca-out'] ?? reference.caFile;
  if (values['ca-out'] !== undefined) writeFileSync(caFile, reference.tls.ca);
  printFacts(reference, options, caFile, values.json === true, io);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await reference.close();
  return 0;
}

/** The reference's options from serve's flags, each checked. */
function referenceOptions(values: ReturnType<typeof parse<typeof SERVE_OPTIONS>>): ReferenceOptions {
  const mutant = values.mutant;
  if (mutant !== undefined && !MUTANTS.some((m) => m.name === mutant)) {
    throw new HarnessError('USAGE_ERROR', `unknown mutant ${JSON.stringify(mutant)}`, 'list them with: cpr-conformance serve --list-mutants');
  }
  // A mutant that shows only under a configuration other than the defaults is served under it, part by part, unless a flag says otherwise.
  const configured = MUTANTS.find((m) => m.name === mutant)?.configuration ?? {};
  return {
    host: values.host ?? '127.0.0.1',
    port: integerOption('serve', 'port', values.port, 0, 65535) ?? 8443,
    plaintextPort: values['no-plaintext'] ? null : (integerOption('serve', 'plaintext-port', values['plaintext-port'], 0, 65535) ?? 8080),
    freezeClock: values['freeze-clock'] === true,
    ...optional('basePath', values['base-path']),
    controlEnabled: values['no-control'] !== true,
    lease: values['no-lease'] !== true,
    ...optional('mutant', mutant),
    ...optional('seed', values.seed),
    ...optional('tokenLifetimeSeconds', integerOption('serve', 'token-lifetime', values['token-lifetime'], 1, 86_400) ?? configured.tokenLifetimeSeconds),
    ...optional('requestValiditySeconds', integerOption('serve', 'request-validity', values['request-validity'], 1, 31_536_000) ?? configured.requestValiditySeconds),
    ...optional('controlToken', values['control-token']),
    ...optional('policy', values.policy === undefined ? configured.policy : readPolicy(values.policy)),
  };
}

/** Starts the reference; a policy it refuses or a port it cannot take is the user's to fix, said as such. */
async function startOrExplain(options: ReferenceOptions): Promise<Awaited<ReturnType<typeof startReference>>> {
  try {
    return await startReference(options);
  } catch (error) {
    if (error instanceof PolicyError) {
      throw new HarnessError('CONFIG_INVALID', `--policy: ${error.errors.join('; ')}`, 'see the Operator Policy Document members in PROFILE.md §4.8');
    }
    if (error instanceof TypeError && error.message.startsWith('basePath ')) {
      throw new HarnessError('USAGE_ERROR', `--base-path: ${error.message.replace(/^basePath /, '')}`, 'give a path as a URL writes it, starting with "/", without a trailing slash, query or fragment, e.g. --base-path /shops/acme%20gmbh');
    }
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL') {
      throw new HarnessError('USAGE_ERROR', `cannot listen: ${e.message}`, 'choose other ports with --port and --plaintext-port (0 picks free ones)');
    }
    throw error;
  }
}

/** The start-up facts: one JSON line, or the lines a person reads. */
function printFacts(reference: Awaited<ReturnType<typeof startReference>>, options: ReferenceOptions, caFile: string, json: boolean, io: CommandIo): void {
  const facts = {
    profile: PROFILE_ID,
    url: reference.url,
    plaintext_url: reference.plaintextUrl ?? null,
    ca_file: caFile,
    clock: reference.clock.state().frozen ? 'frozen' : 'running',
    control: options.controlEnabled ? `enabled${options.controlToken ? ', bearer token required' : ''}${options.lease === false ? ', no lease' : ''}` : 'disabled',
    mutant: options.mutant ?? null,
  };
  if (json) {
    io.stdout.write(`${JSON.stringify(facts)}\n`);
  } else {
    io.stdout.write(
      [
        `cpr-conformance reference implementation (${PROFILE_ID})`,
        `  https      ${facts.url}   payee, operator and test control`,
        `  plaintext  ${facts.plaintext_url ?? '(disabled)'}${facts.plaintext_url ? '   refuses to serve CPRs (spec §5.1.4)' : ''}`,
        `  trust      CA certificate ${facts.ca_file}`,
        `  clock      ${facts.clock}${options.controlEnabled ? ' (POST /_control/clock freezes, sets and advances it)' : ''}`,
        `  control    ${facts.control}`,
        ...(options.mutant ? [`  MUTANT     ${options.mutant}: deliberately NOT conformant${configuredNote(options)}`] : []),
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function readPolicy(file: string): ReferenceOptions['policy'] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE_ERROR', `cannot read --policy ${file}: ${(error as Error).message}`, 'give a JSON or YAML file of Operator Policy members');
  }
  const value: unknown = YAML.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HarnessError('CONFIG_INVALID', `--policy ${file} must hold an object of policy members`);
  }
  return value as ReferenceOptions['policy'];
}

/** For a mutant served under its own configuration (MutantSpec.configuration): which parts of it are in force. */
function configuredNote(options: ReferenceOptions): string {
  const configured = MUTANTS.find((m) => m.name === options.mutant)?.configuration;
  if (configured === undefined) return '';
  const inForce = Object.entries(configured).filter(([key, value]) => options[key as keyof ReferenceOptions] === value);
  return inForce.length === 0 ? '' : `, configured ${JSON.stringify(Object.fromEntries(inForce))}`;
}
