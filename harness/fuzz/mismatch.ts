// A difference between what the model predicted and what the implementation
// answered: the one way a model run fails. It carries expected and actual, the
// profile rule and the requirement it breaks, so the crash file and the
// regression scenario can name them. Anything else thrown in a run (a target that
// stops answering, test control that refuses) is a harness fault, never a finding.
import type { ProblemCode } from '../../profile/index.ts';

export interface MismatchDetail {
  /** The command, as the crash file lists it. */
  readonly command: string;
  /** What was compared, e.g. "answer", "principal balance", "chain_digest". */
  readonly what: string;
  readonly expected: unknown;
  readonly actual: unknown;
  /** The requirement ID (suites/requirements.yaml) whose rule the answer breaks. */
  readonly requirement: string;
  readonly rule?: string;
}

export class Mismatch extends Error {
  constructor(readonly detail: MismatchDetail) {
    super(`${detail.command}: ${detail.what}: expected ${brief(detail.expected)}, got ${brief(detail.actual)}${detail.rule ? ` (${detail.rule})` : ''}`);
    this.name = 'Mismatch';
  }
}

/** Setup or test control failed, or the model run could not go on: exit 2, not a finding. */
export class HarnessFault extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarnessFault';
  }
}

/** The requirement a refusal proves (suites/requirements.yaml). */
const REQUIREMENT_OF_CODE: Readonly<Partial<Record<ProblemCode, string>>> = {
  DUPLICATE_ID: 'CPP-RPL-1',
  CHAIN_DIGEST_MISMATCH: 'CPP-CHN-2',
  BEARER_MISMATCH: 'CPP-BRR-1',
  INSTRUMENT_NOT_ACTIVE: 'CPP-ACT-1',
  CHAIN_DEPTH_EXCEEDED: 'CPP-DEPTH-1',
  REDEEMER_NOT_IDENTIFIED: 'CPP-IDN-1',
  INSUFFICIENT_BALANCE: 'CPP-BAL-1',
  AMOUNT_EXCEEDS_LIMIT: 'CPP-LIM-1',
  EXPIRY_INVALID: 'CPP-EXP-1',
  PRINCIPAL_UNKNOWN: 'CPP-PRN-1',
  INVALID_SIGNATURE: 'CPP-SIG-1',
  STALE_REQUEST: 'PRF-FRESH-1',
  UNAUTHENTICATED: 'PRF-AUTH-1',
  FORBIDDEN: 'PRF-AUTH-1',
  NOT_FOUND: 'PRF-AUTH-1',
};

/** The requirement a success proves, by endpoint. */
const REQUIREMENT_OF_SUCCESS = {
  issue: 'CPP-ISS-1',
  renew: 'CPP-RNW-1',
  redeem: 'CPP-RED-1',
  status: 'CPP-STS-1',
  cancel: 'CPP-CAN-1',
} as const;

export function requirementOf(kind: keyof typeof REQUIREMENT_OF_SUCCESS, outcome: { readonly ok: boolean; readonly code?: ProblemCode }): string {
  if (outcome.ok) return REQUIREMENT_OF_SUCCESS[kind];
  const code = outcome.code!;
  if (kind === 'cancel' && code === 'NOT_FOUND') return 'PRF-CTL-1';
  return REQUIREMENT_OF_CODE[code] ?? 'PRF-ORDER-1';
}

export function brief(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return text === undefined ? 'nothing' : text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
