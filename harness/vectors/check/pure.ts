// The pure kinds checked against the reference's own functions (no network):
// validateCpr and the paying application, parseDeliveryUri, the I-JSON reader and
// canonicalBytes, verifyObject, chainDigests, readJwk / jwkThumbprint, derive.
// Each checker reads a case exactly as vectors/README.md tells a consumer to.
import { isDeepStrictEqual } from 'node:util';
import { chainDigests, digestText, readDigest, type ChainLink } from '../../../profile/chain.ts';
import { decodeB64urlFixed } from '../../../profile/b64url.ts';
import { parseIJson } from '../../../profile/ijson.ts';
import { canonicalBytes } from '../../../profile/jcs.ts';
import { jwkThumbprint, readJwk } from '../../../profile/jwk.ts';
import { signingInput, verifyObject, type MessageType } from '../../../profile/signing.ts';
import { parseTimestamp } from '../../../profile/time.ts';
import { isUuid } from '../../../profile/uuid.ts';
import { parseDeliveryUri, retrievalUrl, validateCpr } from '../../../profile/cpr/index.ts';
import { createPayingApp } from '../../../reference/paying-app/index.ts';
import type { VectorGroup, VectorKind, VectorTest } from '../model.ts';
import { show, type CaseAnswer } from './types.ts';

type Doc = Record<string, unknown>;
type PureChecker = (test: VectorTest, group: VectorGroup) => CaseAnswer | Promise<CaseAnswer>;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const expectedOf = (test: VectorTest) => (test['expected'] ?? {}) as Doc;

async function cprDocument(test: VectorTest, group: VectorGroup): Promise<CaseAnswer> {
  const text = test['json'] as string;
  const expected = expectedOf(test);
  let doc: unknown;
  try {
    doc = parseIJson(text);
  } catch (error) {
    return { got: 'invalid', detail: `not I-JSON: ${(error as Error).message}` };
  }
  const result = validateCpr(doc);
  const now = parseTimestamp(group['now'], 'cpr') ?? 0;
  const app = await createPayingApp({ clock: () => now }).read({ kind: 'json', text });
  if (result.ok) {
    const problems = [
      ...(expected['sub_interface'] !== undefined && result.subInterface !== expected['sub_interface'] ? [`read as ${result.subInterface}, expected ${String(expected['sub_interface'])}`] : []),
      ...(!app.ok ? [`the paying application rejected it with ${app.code}`] : []),
    ];
    return { got: 'valid', detail: `valid ${result.subInterface}`, ...(problems.length ? { problem: problems.join('; ') } : {}) };
  }
  const ids = [...new Set(result.violations.map((v) => v.requirement))];
  const problems = [
    ...(expected['requirement'] !== undefined && !ids.includes(expected['requirement'] as string) ? [`violations name ${ids.join(', ')}, not ${String(expected['requirement'])}`] : []),
    ...(expected['code'] !== undefined && (app.ok || app.code !== expected['code']) ? [`the paying application answered ${app.ok ? 'a valid read' : app.code}, expected ${String(expected['code'])}`] : []),
  ];
  return { got: 'invalid', detail: `violations: ${ids.join(', ')}`, ...(problems.length ? { problem: problems.join('; ') } : {}) };
}

function deliveryUri(test: VectorTest): CaseAnswer {
  const expected = expectedOf(test);
  const parsed = parseDeliveryUri(test['uri']);
  if (parsed.kind === 'error') return { got: 'invalid', detail: `${parsed.code}: ${parsed.reason}` };
  if (parsed.kind === 'token') {
    const got = { kind: 'token', token: parsed.token, endpoint: parsed.endpoint, retrieval_url: retrievalUrl(parsed.endpoint, parsed.token) };
    const problem = expected['kind'] !== undefined && !isDeepStrictEqual(got, expected) ? `parsed as ${show(got)}` : undefined;
    return { got: 'valid', detail: `token ${parsed.token} at ${parsed.endpoint}`, ...(problem ? { problem } : {}) };
  }
  // An inline payload must also be I-JSON (PROFILE.md §1) to be a CPR at all.
  try {
    parseIJson(parsed.json);
  } catch (error) {
    return { got: 'invalid', detail: `inline payload is not I-JSON: ${(error as Error).message}` };
  }
  const problem = expected['kind'] !== undefined && (expected['kind'] !== 'inline' || expected['json'] !== parsed.json) ? `parsed as inline ${show(parsed.json)}` : undefined;
  return { got: 'valid', detail: 'inline', ...(problem ? { problem } : {}) };
}

function jcs(test: VectorTest): CaseAnswer {
  let bytes: Uint8Array;
  try {
    bytes = canonicalBytes(parseIJson(test['input'] as string));
  } catch (error) {
    return { got: 'invalid', detail: (error as Error).message };
  }
  const expected = test['canonical_hex'];
  const problem = expected !== undefined && hex(bytes) !== expected ? `canonical bytes differ: ${show(Buffer.from(bytes).toString('utf8'))}` : undefined;
  return { got: 'valid', ...(problem ? { problem } : {}) };
}

function signature(test: VectorTest): CaseAnswer {
  const type = test['message_type'] as MessageType;
  const object = test['object'] as Doc;
  const key = readJwk(test['public_key_jwk']);
  let input: string | undefined;
  try {
    input = hex(signingInput(type, object));
  } catch {
    input = undefined;
  }
  const problem = input !== test['signing_input_hex'] ? 'the signing input differs from signing_input_hex' : undefined;
  if (!key.ok) return { got: 'invalid', detail: `public key: ${key.reason}`, ...(problem ? { problem } : {}) };
  const ok = verifyObject(type, { ...object, signature: test['signature'] }, key.publicKey);
  return { got: ok ? 'valid' : 'invalid', ...(problem ? { problem } : {}) };
}

function chainDigest(test: VectorTest): CaseAnswer {
  const entries = test['renewal_chain'] as Doc[];
  const initial = readJwk(test['initial_bearer_pk']);
  if (!initial.ok) return { got: 'invalid', detail: `initial_bearer_pk: ${initial.reason}` };
  let digests: string[];
  try {
    const links: ChainLink[] = entries.map((e, i) => {
      const key = readJwk(e['new_bearer_pk']);
      const sig = decodeB64urlFixed(e['signature'], 64);
      if (!key.ok || !sig) throw new TypeError(`renewal_chain[${i}] has no readable new_bearer_pk or signature`);
      return { renewal_id: e['renewal_id'] as string, new_bearer_key: key.publicKey, signature: sig };
    });
    digests = chainDigests(test['pack_id'] as string, initial.publicKey, links).map(digestText);
  } catch (error) {
    return { got: 'invalid', detail: (error as Error).message };
  }
  const brokenLink = entries.findIndex((e, i) => readDigest(e['prev_chain_digest']) === undefined || e['prev_chain_digest'] !== digests[i]);
  if (brokenLink >= 0) return { got: 'invalid', detail: `renewal_chain[${brokenLink}].prev_chain_digest is not D${brokenLink}` };
  if (!isDeepStrictEqual(digests, test['digests'])) {
    const at = digests.findIndex((d, i) => d !== (test['digests'] as unknown[])[i]);
    return { got: 'invalid', detail: `recomputed digests differ${at >= 0 ? ` from D${at}` : ' in length'}` };
  }
  return { got: 'valid' };
}

function jwk(test: VectorTest): CaseAnswer {
  const read = readJwk(test['jwk']);
  if (!read.ok) return { got: 'invalid', detail: read.reason };
  const x = (test['jwk'] as Doc)['x'] as string;
  const expected = test['thumbprint'];
  const problem = expected !== undefined && (jwkThumbprint(x) !== expected || read.kid !== expected) ? `thumbprint ${jwkThumbprint(x)}, expected ${String(expected)}` : undefined;
  return { got: 'valid', ...(problem ? { problem } : {}) };
}

async function derivation(test: VectorTest): Promise<CaseAnswer> {
  const context = test['context'] as Doc;
  const now = parseTimestamp(context['now'], 'cpr');
  if (now === undefined) return { got: 'invalid', problem: 'context.now is not an RFC 3339 instant' };
  const app = createPayingApp({ clock: () => now });
  let cpr: unknown;
  try {
    cpr = parseIJson(test['json'] as string);
  } catch (error) {
    return { got: 'invalid', detail: `not I-JSON: ${(error as Error).message}` };
  }
  const ctx = { ...context, now } as unknown as Parameters<typeof app.derive>[1];
  const first = app.derive(cpr, ctx);
  const expected = expectedOf(test);
  if (!first.ok) {
    const problem = expected['code'] !== undefined && first.code !== expected['code'] ? `rejected with ${first.code}, expected ${String(expected['code'])}` : undefined;
    return { got: 'invalid', detail: first.code, ...(problem ? { problem } : {}) };
  }
  const { id, ...rest } = JSON.parse(JSON.stringify(first.payment)) as Doc;
  const second = app.derive(cpr, ctx);
  const problems = [
    ...(!isUuid(id) ? [`payment.id ${show(id)} is not a UUID`] : []),
    ...(second.ok && second.payment.id === id ? ['two derivations gave the same payment.id'] : []),
    ...(expected['payment'] !== undefined && !isDeepStrictEqual(rest, expected['payment']) ? [`payment differs: ${show(rest)}`] : []),
  ];
  return { got: 'valid', ...(problems.length ? { problem: problems.join('; ') } : {}) };
}

export const PURE_CHECKERS: Readonly<Partial<Record<VectorKind, PureChecker>>> = {
  'cpr-documents': cprDocument,
  'delivery-uris': deliveryUri,
  jcs,
  signatures: signature,
  'chain-digests': chainDigest,
  'jwk-thumbprints': jwk,
  derivation,
};
