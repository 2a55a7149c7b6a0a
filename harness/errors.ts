// The one taxonomy of the harness's error codes (STYLE.md §6): every code any
// part of the harness reports, what it means, and a hint. A leaf module: it
// imports nothing, and everything imports it. report.schema.json enumerates the
// same codes (a test keeps them equal), and `explain CODE` prints an entry.
//
// Three places a code appears:
//   command  the command could not do its work: printed on stderr with its hint,
//            exit 2 (a HarnessError)
//   test     a test's error_code in report.json: never a conformance result,
//            except HARNESS_SETUP_FAILED (an observed failure of a setup step's
//            own requirement)
//   run      report.json errors[]: what went wrong with the run as a whole

export type ErrorScope = 'command' | 'test' | 'run';

interface ErrorEntry {
  readonly scopes: readonly ErrorScope[];
  readonly summary: string;
  readonly hint: string;
}

export const ERRORS = {
  USAGE_ERROR: { scopes: ['command'], summary: 'a wrong command, flag, value or argument', hint: 'see: cpr-conformance <command> --help' },
  CONFIG_INVALID: {
    scopes: ['command'],
    summary: 'a target file, baseline, policy or other input the harness cannot use as given',
    hint: 'the message names the file, the key and what was expected; for target files see harness/ADAPTERS.md, or write a commented template with: cpr-conformance init',
  },
  SCENARIO_INVALID: {
    scopes: ['command', 'test'],
    summary: 'a scenario file that does not load (file, line and key named), or a scenario that cannot pass as written (it checks nothing)',
    hint: 'suites/README.md describes the format; suites/scenario.schema.json gives every parameter',
  },
  REGISTRY_INVALID: { scopes: ['command'], summary: 'suites/requirements.yaml does not load or breaks its schema', hint: 'suites/requirements.schema.json gives the format; every entry needs a unique ID' },
  NOTHING_SELECTED: { scopes: ['command'], summary: 'no scenario or property matches --only and --role', hint: 'see what exists with: cpr-conformance list' },
  NOTHING_TO_DECIDE: {
    scopes: ['command'],
    summary: 'the run has no role to test (--role names none the target has), or its selection covers no requirement that decides a verdict: a run that can judge nothing is never conformant',
    hint: 'give a role the target has (see the roles in the target file or --target), or select tests of MUST or PROFILE requirements; what exists: cpr-conformance list',
  },
  FINDING_NOT_REPRODUCED: {
    scopes: ['command'],
    summary: 'a fuzz regression scenario that did not fail where its finding was made passed: that says nothing about the fault',
    hint: 'replay the crash file beside it instead: cpr-conformance replay crash-<seed>.json',
  },
  HARNESS_SETUP_FAILED: {
    scopes: ['test'],
    summary: "a setup step's check failed: its own requirement failed (an observed failure); the requirements under test were not exercised",
    hint: 'fix the requirement the setup step names first; cpr-conformance explain ID says what it demands',
  },
  HARNESS_TARGET_UNREACHABLE: {
    scopes: ['command', 'test', 'run'],
    summary: 'the target gave no answer at all (refused, reset, timed out, TLS), or stopped answering: never a conformance result',
    hint: 'is it running, and is base_url in the target file (or --target) right? --request-timeout and --unreachable-after bound the wait',
  },
  HARNESS_TLS_UNTRUSTED: {
    scopes: ['command', 'test', 'run'],
    summary: "the target answered, but its TLS certificate is not one the harness trusts (an unknown CA, a name it does not carry, expired): a trust setting of the harness, never a conformance result",
    hint: 'give the CA that issued the certificate: --ca FILE with --target URL, tls.ca_file in a target file; or opt out (recorded in the report) with --insecure or tls.insecure: true',
  },
  HARNESS_TARGET_START_FAILED: {
    scopes: ['command'],
    summary: 'the --start command could not be run, or exited before its --ready URL answered: nothing was tested',
    hint: "the message quotes the command's last output lines; all of it is in server.log in the report folder",
  },
  HARNESS_REFERENCE_START_FAILED: {
    scopes: ['command'],
    summary: 'the embedded reference (the target when none is given) did not start on its thread: nothing was tested',
    hint: 'the message quotes the reason: an unknown --mutant, a bad policy, or a thread that gave no word in time (a machine too busy to load it)',
  },
  HARNESS_TARGET_NOT_READY: {
    scopes: ['command'],
    summary: 'the --ready URL gave no answer below 500 before --ready-timeout passed: the server started by --start was stopped, nothing was tested',
    hint: 'the message names the last answer: is --ready the URL the server listens on (scheme, port, path), and --ready-timeout long enough for it to start?',
  },
  HARNESS_TARGET_BUSY: {
    scopes: ['command', 'test', 'run'],
    summary: "another client holds the target's test-control lease (PROFILE.md §12): the run did not start, so nothing of it is a conformance result",
    hint: 'wait for the lease with --lease-wait SECONDS, run one after another, or give each run and fuzzing campaign a target instance of its own (README "In CI")',
  },
  HARNESS_CLOCK_MOVED: {
    scopes: ['command', 'test'],
    summary: "the target's clock moved in a way the harness did not move it (another client of its test control, PROFILE.md §12): the tests it touched are errors, their failed checks recorded but charged nothing; a fuzzing campaign ends without a finding",
    hint: 'give each run and fuzzing campaign a target instance of its own, or run them one after another; a target that offers the test-control lease lets the harness hold it (README "In CI")',
  },
  HARNESS_UNDECLARED_SHARED_STATE: {
    scopes: ['test'],
    summary: "a test run beside others sent a test-control request that moves state every test shares (the clock or its lease, PROFILE.md §12) without declaring it: the request was not sent and the test is not judged",
    hint: 'declare it where the action or property is defined (vocabulary.ts ACTIONS `shares`, PropertyDefinition `shares`); meanwhile run with --concurrency 1',
  },
  HARNESS_DEADLINE_EXCEEDED: { scopes: ['test', 'run'], summary: "the run's time limit passed before the test started, the test outran its own limit, or a test before it that outran its limit and moves state the tests share (the clock, the time zone) still ran", hint: 'raise --time-limit, or run fewer tests (--only, --shard)' },
  HARNESS_STEP_FAILED: {
    scopes: ['test'],
    summary: 'a step could not be carried out: test control (PROFILE.md §12) or a read the scenario depends on answered unusably',
    hint: "the test's reason names the step and the answer; check the target's /_control/ interface and well-known documents",
  },
  HARNESS_ADAPTER_PROTOCOL: { scopes: ['test'], summary: 'a module or process adapter broke its contract: an answer the harness cannot read', hint: 'harness/ADAPTERS.md gives the contract; the reason quotes what came' },
  HARNESS_HOST_NOT_ALLOWED: {
    scopes: ['test', 'run'],
    summary: "the harness's own paying application was not let follow a delivery URI: its endpoint names a host the target file does not (the payee's base URL under another name, say), so the test did not observe it: never a conformance result",
    hint: 'the message names the refused host: if it is the payee, name the payee by it in the target file, or allow it with --allow-host HOST[:PORT]',
  },
  HARNESS_INTERNAL: { scopes: ['command', 'test', 'run'], summary: 'a defect of the harness: an exception it did not expect', hint: 'please report it with the command and the message' },
  INTERRUPTED: { scopes: ['command', 'run'], summary: 'the run was interrupted (Ctrl-C or SIGTERM): the results are partial (or, before the first test, there are none)', hint: 'run again to completion for a verdict' },
  REPORT_SHARDS_MISSING: { scopes: ['run'], summary: 'report merge was given fewer shards than the run was split into', hint: 'merge every shard: cpr-conformance report merge DIR-1 ... DIR-n' },
  FUZZ_SHARDS_MISSING: {
    scopes: ['command'],
    summary: 'fuzz merge was given fewer shards than the campaign was split into: nothing is published until every shard reported',
    hint: 'merge the --out folder of every shard: cpr-conformance fuzz merge DIR-1 ... DIR-n; a shard that ended in error wrote no fuzz-shard.json: run it again',
  },
  NOT_CERTIFICATION_GRADE: {
    scopes: ['command'],
    summary: 'a run (certify) or a packaged run (verify-package) that does not certify its target: incomplete or error verdict, cut short, harness errors, a deciding requirement not exercised, or a narrowed run; certify writes no package for it',
    hint: "certify needs every deciding requirement of the target's roles exercised: give every role, with its test-control capabilities; why each was not: cpr-conformance explain ID --report DIR/report.json",
  },
  PACKAGE_UNREADABLE: {
    scopes: ['command'],
    summary: 'not a certification package that can be read: not gzip or tar, over the size limits, an entry that is not a plain file (a link, a directory, a path), or a file that is not the JSON or text it must be',
    hint: 'pass the .tar.gz that cpr-conformance certify wrote, as it wrote it; nothing of it is extracted',
  },
  PACKAGE_ENTRIES_INVALID: {
    scopes: ['command'],
    summary: 'a certification package without exactly its six entries: one is missing, or one is there that a package never holds',
    hint: 'a package holds capabilities.json, manifest.json, policy.json, report.json, signature.jws and target.json, and nothing else',
  },
  PACKAGE_SIGNATURE_INVALID: {
    scopes: ['command'],
    summary: "signature.jws is not a valid EdDSA signature over the canonical manifest.json by the key in its header: the manifest or the signature was changed after signing",
    hint: 'the package was altered or damaged after it was signed: ask its issuer for the original',
  },
  PACKAGE_SIGNER_MISMATCH: {
    scopes: ['command'],
    summary: 'the package is validly signed, but not by the key that --key or --kid requires',
    hint: 'the message names the key that signed it: check with the issuer which key that should be',
  },
  PACKAGE_DIGEST_MISMATCH: {
    scopes: ['command'],
    summary: 'a file of the package does not have the SHA-256 that the signed manifest gives for it: it was changed after signing',
    hint: 'the package was altered or damaged after it was signed: ask its issuer for the original',
  },
  PACKAGE_INCONSISTENT: {
    scopes: ['command'],
    summary: 'the signed manifest, or a file of the package, is not what report.json implies (another verdict, coverage or requirement status, say)',
    hint: 'the package was not written by cpr-conformance certify as it stands: do not rely on it',
  },
} as const satisfies Readonly<Record<string, ErrorEntry>>;

type ErrorCode = keyof typeof ERRORS;
type WithScope<S extends ErrorScope> = { [K in ErrorCode]: S extends (typeof ERRORS)[K]['scopes'][number] ? K : never }[ErrorCode];
/** A code a command fails with. */
export type HarnessErrorCode = WithScope<'command'>;
/** A test's error_code. */
export type TestErrorCode = WithScope<'test'>;
/** A code of report.json errors[]. */
export type RunIssueCode = WithScope<'run'>;

export function codesOf(scope: ErrorScope): ErrorCode[] {
  return (Object.keys(ERRORS) as ErrorCode[]).filter((code) => (ERRORS[code].scopes as readonly ErrorScope[]).includes(scope));
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}

/** A harness error with a stable code; its hint is the taxonomy's unless a more specific one is given. */
export class HarnessError extends Error {
  readonly hint: string;

  constructor(
    readonly code: HarnessErrorCode,
    message: string,
    hint?: string,
  ) {
    super(message);
    this.name = 'HarnessError';
    this.hint = hint ?? ERRORS[code].hint;
  }
}
