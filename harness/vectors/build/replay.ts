// replay.json: replay protection and freshness (PROFILE.md §6, spec §7.1
// DUPLICATE_ID) as request/response sequences against an operator: an identical
// resend, one id namespace across request_id, renewal_id and redemption_id, and
// created_at outside the request window. Messages are filled in and signed at run
// time with the published test keys, so every run uses fresh ids.
import type { DraftCase, DraftFile, Json, JsonObject } from '../model.ts';
import { keyHeaderLines } from '../keys.ts';
import { draftCase } from './draft.ts';
import { JSON_TYPE, freezeClock, problem, step, unfreezeClock } from './steps.ts';

const ISSUE = '/v1/cashpack/issue';
const RENEW = '/v1/cashpack/renew';
const REDEEM = '/v1/cashpack/redeem';

const setup: JsonObject[] = [
  freezeClock,
  step({
    comment: 'read the policy: an asset the operator issues and the request window',
    request: { method: 'GET', path: '/.well-known/cashpack-policy.json' },
    expect: { status: 200, content_type: JSON_TYPE },
    bind: { asset: '/assets/0', window: '/request_window_seconds' },
  }),
  step({
    comment: 'register test-key-1 as a Principal with funds in that asset',
    request: { method: 'POST', path: '/_control/operator/principals', body: { public_key: '{{key:test-key-1}}', asset: '{{asset}}', balance: '1000000' } },
    expect: { status: 201 },
  }),
];

interface LockOptions {
  readonly id?: string;
  readonly amount?: string;
  readonly bearer?: string;
  readonly createdAt?: string;
  readonly signer?: string;
  readonly saveAs?: string;
}

function lockBody(o: LockOptions): Json {
  return {
    request_id: `{{uuid:${o.id ?? 'lock'}}}`,
    principal_pk: '{{key:test-key-1}}',
    // 1, the smallest amount, is one every max_amount allows.
    amount: o.amount ?? '1',
    asset: '{{asset}}',
    initial_bearer_pk: `{{key:${o.bearer ?? 'test-key-2'}}}`,
    requested_expiry: '{{time:now+86400}}',
    created_at: o.createdAt ?? '{{time:now}}',
  };
}

function lock(comment: string, expect: Parameters<typeof step>[0]['expect'], o: LockOptions = {}, bindPack = false): JsonObject {
  return step({
    comment,
    request: { method: 'POST', path: ISSUE, body: lockBody(o), sign: { message_type: 'lock-request', key: o.signer ?? 'test-key-1' }, save_as: o.saveAs ?? 'lock' },
    expect,
    ...(bindPack ? { bind: { pack: '' } } : {}),
  });
}

function renew(comment: string, expect: Parameters<typeof step>[0]['expect'], id: string, o: { pack?: string; bearer?: string; next?: string; saveAs?: string; bind?: string } = {}): JsonObject {
  const pack = o.pack ?? 'pack';
  return step({
    comment,
    request: {
      method: 'POST',
      path: RENEW,
      body: {
        cash_pack: `{{${pack}}}`,
        renewal: {
          renewal_id: `{{uuid:${id}}}`,
          pack_id: `{{${pack}/pack_id}}`,
          prev_chain_digest: `{{${pack}/chain_digest}}`,
          bearer_pk: `{{key:${o.bearer ?? 'test-key-2'}}}`,
          new_bearer_pk: `{{key:${o.next ?? 'test-key-3'}}}`,
          created_at: '{{time:now}}',
        },
      },
      sign: { message_type: 'renewal-entry', key: o.bearer ?? 'test-key-2', at: '/renewal' },
      save_as: o.saveAs ?? 'renew',
    },
    expect,
    ...(o.bind ? { bind: { [o.bind]: '' } } : {}),
  });
}

const issued = { status: 200, content_type: JSON_TYPE, json: { '/amount': '1', '/renewal_chain': [] as Json[] } };
const duplicate = problem(409, 'DUPLICATE_ID');

function sequence(k: string, comment: string, flags: string[], requirements: string[], steps: JsonObject[]): DraftCase {
  return draftCase(k, comment, flags, 'valid', ['PRF-RPL-1', ...requirements], { role: 'operator', needs: ['provision', 'clock'], steps: [...setup, ...steps], finally: [unfreezeClock] });
}

function cases(): DraftCase[] {
  return [
    sequence('identical-resend:lock', 'a Lock Request, then the identical bytes again: 409 DUPLICATE_ID, nothing issued twice', ['IdenticalResend'], ['CPP-RPL-1'], [
      lock('issue a pack', issued),
      step({ comment: 'send exactly the same body again', request: { method: 'POST', path: ISSUE, body: '{{lock}}' }, expect: duplicate }),
    ]),
    sequence('reused-request-id', 'a second, different Lock Request with a request_id already seen: DUPLICATE_ID', ['ReusedId'], ['CPP-RPL-1'], [
      lock('issue a pack', issued),
      lock('another initial bearer under the same request_id', duplicate, { bearer: 'test-key-3', saveAs: 'lock2' }),
    ]),
    sequence('identical-resend:renewal', 'a successful renewal sent again as is: DUPLICATE_ID', ['IdenticalResend'], ['CPP-RPL-1'], [
      lock('issue a pack', issued, {}, true),
      renew('renew it to test-key-3', { status: 200, content_type: JSON_TYPE, json: { '/current_bearer_pk': '{{key:test-key-3}}' } }, 'renewal'),
      step({ comment: 'send exactly the same renew body again', request: { method: 'POST', path: RENEW, body: '{{renew}}' }, expect: duplicate }),
    ]),
    sequence('cross-namespace:request-id-as-renewal-id', 'a request_id reused as a renewal_id: one namespace, DUPLICATE_ID; the pack is untouched and renews under a fresh id', ['CrossNamespace'], ['CPP-RPL-1'], [
      lock('issue a pack', issued, {}, true),
      renew('renew with renewal_id = the Lock Request\'s request_id', duplicate, 'lock'),
      renew('the same renewal under a fresh renewal_id', { status: 200, content_type: JSON_TYPE, json: { '/renewal_chain/0/renewal_id': '{{uuid:fresh}}' } }, 'fresh', { saveAs: 'renew2' }),
    ]),
    sequence('cross-namespace:renewal-id-as-request-id', 'a renewal_id reused as the request_id of a new Lock Request: DUPLICATE_ID', ['CrossNamespace'], ['CPP-RPL-1'], [
      lock('issue a pack', issued, {}, true),
      renew('renew it', { status: 200 }, 'renewal'),
      lock('a new Lock Request whose request_id is that renewal_id', duplicate, { id: 'renewal', saveAs: 'lock2' }),
    ]),
    sequence('cross-namespace:renewal-id-as-redemption-id', 'a renewal_id reused as a redemption_id: DUPLICATE_ID (step 6, before redeemer identity)', ['CrossNamespace'], ['CPP-RPL-1'], [
      lock('issue a pack', issued, {}, true),
      renew('renew it to test-key-3', { status: 200 }, 'renewal', { bind: 'pack2' }),
      step({
        comment: 'redeem by test-key-3 with redemption_id = the renewal_id',
        request: {
          method: 'POST',
          path: REDEEM,
          body: {
            cash_pack: '{{pack2}}',
            redemption: {
              redemption_id: '{{uuid:renewal}}',
              pack_id: '{{pack2/pack_id}}',
              bearer_pk: '{{key:test-key-3}}',
              redeemer_kid: '{{kid:test-key-6}}',
              created_at: '{{time:now}}',
            },
          },
          sign: { message_type: 'redemption-request', key: 'test-key-3', at: '/redemption' },
        },
        expect: duplicate,
      }),
    ]),
    sequence('stale:past', 'created_at one second older than the request window: 422 STALE_REQUEST, and the id is not recorded', ['Stale'], ['PRF-FRESH-1'], [
      lock('created_at = now - window - 1', problem(422, 'STALE_REQUEST'), { createdAt: '{{time:now-window-1}}' }),
      lock('the same request_id, fresh: accepted, since a stale message records nothing', issued, { saveAs: 'lock2' }),
    ]),
    sequence('stale:future', 'created_at one second beyond the window in the future: STALE_REQUEST', ['Stale'], ['PRF-FRESH-1'], [
      lock('created_at = now + window + 1', problem(422, 'STALE_REQUEST'), { createdAt: '{{time:now+window+1}}' }),
    ]),
    sequence('fresh:window-edges', 'created_at exactly at either edge of the window is fresh', ['WindowEdge'], ['PRF-FRESH-1', 'PRF-BOUND-1'], [
      lock('created_at = now - window', issued, { id: 'edge1', createdAt: '{{time:now-window}}' }),
      lock('created_at = now + window', issued, { id: 'edge2', createdAt: '{{time:now+window}}', saveAs: 'lock2' }),
    ]),
    sequence('not-recorded:bad-signature', 'a Lock Request with a bad signature records nothing: the same request_id then succeeds', ['NotRecorded'], ['PRF-ORDER-1', 'CPP-SIG-1'], [
      lock('signed by test-key-4 instead of principal_pk', problem(400, 'INVALID_SIGNATURE'), { signer: 'test-key-4' }),
      lock('the same request_id, signed correctly', issued, { saveAs: 'lock2' }),
    ]),
    sequence('recorded:later-failure', 'an id is recorded once signature and freshness pass, whatever fails later: after AMOUNT_EXCEEDS_LIMIT the id is spent', ['Recorded'], ['PRF-ORDER-1', 'CPP-LIM-1'], [
      lock('an amount of 10^77, above any max_amount', problem(422, 'AMOUNT_EXCEEDS_LIMIT'), { amount: `1${'0'.repeat(77)}` }),
      lock('the same request_id with an acceptable amount', duplicate, { saveAs: 'lock2' }),
    ]),
  ];
}

export function buildReplay(): DraftFile {
  return {
    kind: 'replay',
    header: [
      'Replay protection and freshness (PROFILE.md §5, §6; spec §7.1 DUPLICATE_ID) as request/response sequences against the operator role, Wycheproof style.',
      'Each case starts by freezing the shared clock, reading the policy and registering test-key-1 as a Principal through the test-control interface (PROFILE.md §12; `needs` lists the capabilities). Steps in `finally` run whatever happened and are not judged.',
      'Message bodies are templates: placeholders are filled ({{uuid:name}} is a fresh random UUID per run, {{time:now-window-1}} an instant relative to the frozen clock, {{key:test-key-1}} a published public JWK), then the object named by `sign` is signed with that published key under the message type\'s tag (PROFILE.md §2.2) and its "signature" member set. The step language is described in vectors/README.md.',
      'The cases assume the policy allows a requested expiry of one day and a max_amount below 10^77; they lock 1 unit, an amount every max_amount allows.',
      ...keyHeaderLines(['test-key-1', 'test-key-2', 'test-key-3', 'test-key-4', 'test-key-6']),
    ],
    notes: {
      IdenticalResend: 'The same bytes sent again: a replay like any other (PROFILE.md §6).',
      ReusedId: 'A new message under an id already recorded.',
      CrossNamespace: 'request_id, renewal_id and redemption_id share one namespace (PROFILE.md §6).',
      Stale: 'created_at outside request_window_seconds of the operator\'s clock: STALE_REQUEST.',
      WindowEdge: 'created_at exactly request_window_seconds away: still fresh (the window is inclusive).',
      NotRecorded: 'A message that fails before the replay step (signature, freshness) does not record its id.',
      Recorded: 'A message that passes the replay step records its id even if a later step fails.',
    },
    groups: [{ members: { type: 'SequenceTest', comment: 'replay and freshness' }, tests: cases() }],
  };
}
