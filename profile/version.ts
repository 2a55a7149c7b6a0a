// The profile's versions, newest first: the machine-readable form of PROFILE.md
// "Changes" (§14; a test keeps the two equal). The identifier is the newest
// entry's, and every use reads it from here: the policy document and capability
// discovery of the reference, report.json, the serve banner, the certification
// manifest, the published vectors. PROFILE.md §13: any change to a wire rule
// changes it.

/** One changed rule of a version. */
interface ProfileChange {
  /** Where it lives in PROFILE.md, e.g. "§2.4". */
  readonly section: string;
  /** What the rule says from this version on. */
  readonly rule: string;
  /** What an implementation built against the earlier text must change. */
  readonly change: string;
}

interface ProfileVersion {
  readonly id: string;
  /** The day it was published, YYYY-MM-DD. */
  readonly date: string;
  readonly summary: string;
  /** The rules that changed since the version below it (none for the first). */
  readonly changes: readonly ProfileChange[];
}

export const PROFILE_VERSIONS: readonly ProfileVersion[] = [
  {
    id: 'CPP-PROFILE-1.4',
    date: '2026-11-27',
    summary: 'How long a payee knows the retrieval tokens and requests it made, and a display_name for the requests test control creates',
    changes: [
      {
        section: '§10',
        rule: 'a payee knows every token it issued, consumed or expired, and answers it TOKEN_CONSUMED or TOKEN_EXPIRED, until at least one token lifetime after the token expired; after that it MAY forget it and answer 404 TOKEN_UNKNOWN (1.3 named no end, so a payee had to remember every token for ever)',
        change: 'nothing: a payee that remembers its tokens longer, or for ever, stays conformant; one that forgot a token sooner keeps it known for a lifetime after it expired',
      },
      {
        section: '§12',
        rule: "POST /_control/payee/requests takes display_name (1 to 140 code points), written as the request's payee.display_name, beside the members it took",
        change: 'a payee\'s test control creates requests with a display_name it is given',
      },
      {
        section: '§12',
        rule: 'a request is known to fulfil, and answered REQUEST_CONSUMED or REQUEST_EXPIRED, until at least request_validity_seconds after its expires_at; after that it MAY be forgotten (404 NOT_FOUND)',
        change: 'as above: nothing, unless the payee forgot its requests sooner',
      },
      {
        section: '§4.8, §12',
        rule: 'the policy document and capability discovery name CPP-PROFILE-1.4',
        change: 'advertise CPP-PROFILE-1.4',
      },
    ],
  },
  {
    id: 'CPP-PROFILE-1.3',
    date: '2026-11-26',
    summary: "Which registry rule a field defect breaks: the spec's rule for a value without the meaning the spec gives its member, the profile's rule for one written otherwise",
    changes: [
      {
        section: '§7.3, §7.4, §8.3',
        rule: "a sub-interface field or asset member that is missing where required, not a string, or a string without the meaning the spec gives it (an EVM address, 16 bytes, an IBAN, a BIC, an ISO 20022 purpose code, an ISO 4217 code, at most 140 characters) breaks the spec's rule named for the member (SUB-CHAIN-1, SUB-CHAIN-3, SUB-IBAN-1, SUB-IBAN-2, SUB-ACCT-1, SUB-KEY-1, CPR-VAL-1, CPR-VAL-3); a string with that meaning written otherwise than the profile's format breaks only the profile's rule (PRF-EVM-1, PRF-IBAN-1, PRF-FIELD-1, PRF-ASSET-1), by the table \"Field defects\" in §7.4",
        change: 'a paying application names the registry ID of a field defect by that table (a mixed-case receiver_address with a failing EIP-55 checksum is PRF-EVM-1, not SUB-CHAIN-1; a lower-case fiat code is PRF-ASSET-1, not CPR-VAL-1); which values it rejects does not change',
      },
      {
        section: '§4.8, §12',
        rule: 'the policy document and capability discovery name CPP-PROFILE-1.3',
        change: 'advertise CPP-PROFILE-1.3 once the rule above is met',
      },
    ],
  },
  {
    id: 'CPP-PROFILE-1.2',
    date: '2026-11-26',
    summary: "A rule for the status response's updated_at, @authority never taken from a Host naming another host, a violation's path as a JSON Pointer, and 405 with Allow and 404 for paths no resource has",
    changes: [
      {
        section: '§2.4',
        rule: "@authority is the Operator's own authority: a request whose Host names another host is refused (any 4xx) or judged as a request to the Operator itself, its signature verified against the Operator's own authority, never against the one the Host names",
        change: 'an Operator that verified against whatever authority the Host header named verifies against its own, or refuses the request',
      },
      {
        section: '§4.7',
        rule: "updated_at is the Operator's clock at the pack's last state change (issue, each renewal, redemption, cancellation; the expiry instant for EXPIRED); status reads and refused requests leave it unchanged",
        change: 'an Operator that stamped updated_at on other events (a read, a refused request, the moment it noticed an expiry) stamps it only at these changes',
      },
      {
        section: '§8.3',
        rule: 'a CPR_INVALID violation\'s path is the JSON Pointer (RFC 6901) of the offending member, "" for the document itself or for a text that is no JSON document',
        change: 'a paying application that named the member another way (dot notation, a name alone) writes a JSON Pointer',
      },
      {
        section: '§11',
        rule: 'a method a resource of §4 does not take is 405 METHOD_NOT_ALLOWED with an Allow header naming the methods it takes (RFC 9110 §15.5.6), and a path that names no resource of §4 (a segment more before or after one, a longer last segment) is 404 NOT_FOUND, never answered as the resource it resembles',
        change: 'an Operator that matched paths by prefix or sent 405 without Allow answers these exactly',
      },
      {
        section: '§4.8, §12',
        rule: 'the policy document and capability discovery name CPP-PROFILE-1.2',
        change: 'advertise CPP-PROFILE-1.2 once the rules above are met',
      },
    ],
  },
  {
    id: 'CPP-PROFILE-1.1',
    date: '2026-11-25',
    summary: 'Exact HTTP Message Signatures, issued_at from the Operator\'s clock, which registry rule an amount defect breaks, and a test-control lease',
    changes: [
      {
        section: '§2.4',
        rule: 'the form of an HTTP Message Signature is exact: the covered components are "@method" "@authority" "@path" (and "content-digest" on a request with a body) in that order and no others, the parameters are created, keyid and alg in that order and no others, and the Content-Digest matches the body; a signature in any other layout identifies nobody (401 UNAUTHENTICATED on a status read, REDEEMER_NOT_IDENTIFIED on a redemption)',
        change: 'a client signs in exactly this layout (1.0 named the components, but demanded no order of them or of the parameters); an Operator refuses every other layout and checks Content-Digest against the body it came with',
      },
      {
        section: '§4.3',
        rule: 'issued_at is the Operator\'s clock when it issued the pack, never the Lock Request\'s created_at',
        change: 'an Operator that copied created_at sets issued_at from its own clock',
      },
      {
        section: '§1, §8.3',
        rule: 'an amount that is not a profile amount breaks PRF-AMT-1 when it is a whole number of at least zero written another way (decided exactly on its digits, never through a floating-point value), CPR-VAL-2 otherwise; violations is required with CPR_INVALID only',
        change: 'a paying application names the registry ID of an amount defect by the table "Amount defects" in §1; it may leave violations out of a rejection with any other code',
      },
      {
        section: '§11, §12',
        rule: 'a new optional test-control capability, lease (GET and POST /_control/lease, renewed with POST and released with DELETE /_control/lease/{lease_id}), and the problem code CONTROL_BUSY (409, naming the holder and when its lease ends): while a lease is in force, POST /_control/clock without its Control-Lease header is refused',
        change: 'nothing: the capability is optional; an implementation that offers it lists lease at GET /_control/capabilities',
      },
      {
        section: '§4.8, §12, §13',
        rule: 'the policy document and capability discovery name CPP-PROFILE-1.1; the domain separation tags (§2.2) and chain digest tags (§3) keep the name CPP-PROFILE-1.0',
        change: 'advertise CPP-PROFILE-1.1 once the rules above are met; signatures and chain digests stay exactly as they were',
      },
    ],
  },
  {
    id: 'CPP-PROFILE-1.0',
    date: '2026-11-21',
    summary: 'The first published text, with which the first test vectors were published',
    changes: [],
  },
];

/** The identifier of this profile, as the policy document and reports name it. */
export const PROFILE_ID = PROFILE_VERSIONS[0]!.id;

/**
 * The name the wire constants are built on: the domain separation tags (§2.2)
 * and the chain digest tags (§3). It is a name, not a version: changing it would
 * change every signature and digest, so it stays CPP-PROFILE-1.0 whatever the
 * identifier is (PROFILE.md §13).
 */
export const TAG_NAMESPACE = 'CPP-PROFILE-1.0';

/** The versions published after `id`, oldest first; undefined when `id` is no published version. */
export function versionsAfter(id: unknown): readonly ProfileVersion[] | undefined {
  const at = PROFILE_VERSIONS.findIndex((v) => v.id === id);
  return at < 0 ? undefined : PROFILE_VERSIONS.slice(0, at).reverse();
}

/**
 * What a target that advertises `advertised` is told: which rules changed since
 * its version and when, or that the identifier is no published version.
 * Nothing when it is this profile's.
 */
export function profileNotice(advertised: unknown): string | undefined {
  if (advertised === PROFILE_ID) return undefined;
  const newer = versionsAfter(advertised);
  if (newer === undefined) {
    // Text from a target is quoted only when it is short and plain: this lands in every report form.
    const named = typeof advertised === 'string' && /^[A-Za-z0-9._-]{1,40}$/.test(advertised) ? JSON.stringify(advertised) : typeof advertised === 'string' ? 'a text that is no profile identifier' : `no identifier (${typeof advertised === 'number' || typeof advertised === 'boolean' || advertised === null ? String(advertised) : advertised === undefined ? 'nothing' : `a JSON ${Array.isArray(advertised) ? 'array' : typeof advertised}`})`;
    return `${named} is no published version of this profile (${PROFILE_VERSIONS.map((v) => v.id).join(', ')}); this harness tests ${PROFILE_ID} (PROFILE.md §13, §14)`;
  }
  const { id, date } = PROFILE_VERSIONS.find((v) => v.id === advertised)!;
  const changes = newer.flatMap((v) => v.changes.map((c) => `${c.section} (${v.id}, ${v.date}): ${c.rule}; built against the earlier text: ${c.change}`));
  return `${id} (${date}) is an earlier version of this profile; this harness tests ${PROFILE_ID}. Changed since: ${changes.join('. ')} (PROFILE.md §14 "Changes"; cpr-conformance explain ${id})`;
}
