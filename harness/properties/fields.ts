// The field inventory: every field a role of the profile reads, taken from the
// code, never listed by hand. The JSON Schemas of profile/schemas/ give the
// members of the CPR and of the cash-pack messages (each $ref names what a
// member holds: a UUID, a timestamp, an amount, a code ...); the test-control
// vocabulary (profile/control.ts) gives the members of the test-control
// requests; the derivation input is PROFILE.md §9's, whose unchanged members
// payment.schema.json marks. Each field gets the classes of its kind
// (generators/classes/catalogue.ts), plus `signed.altered` inside a signed message and
// `derived.exact` where the Payment copies it. The HTTP surfaces without a body
// schema (token retrieval, the status read, the well-known documents) are rows
// of their own.
import { readFileSync } from 'node:fs';
import { CONTROL_INPUTS, LEASE, type ControlMemberKind } from '../../profile/control.ts';
import type { Role } from '../../profile/registry.ts';
import { CLASSES_OF_KIND, type FieldClassId, type FieldKind } from '../../generators/classes/catalogue.ts';

/** What a free-text field allows, in code points. */
interface TextBounds {
  readonly min: number;
  readonly max: number;
  /** Printable ASCII only (ISO 20022 Max35Text). */
  readonly ascii: boolean;
}

export interface Field {
  /** `document` + `pointer`, e.g. `cpr/memo`, `renew-request/cash_pack/issued_at`; an HTTP surface is `GET /cpr/{token}`. */
  readonly id: string;
  readonly document: string;
  /** JSON Pointer of the member in its document ('' for the document itself). */
  readonly pointer: string;
  readonly kind: FieldKind;
  readonly readers: readonly Role[];
  readonly classes: readonly FieldClassId[];
  /** Where the inventory found it. */
  readonly source: string;
  /** For a free-text field, its bounds. */
  readonly text?: TextBounds;
  /** For an enumeration, its values (rail_hint's are the listed ones, a reader takes any string). */
  readonly values?: readonly string[];
  /** The schema definition the member refers to (`uuid`, `evmAddress`, `jwk` ...), when it refers to one. */
  readonly definition?: string;
}

// ---------------------------------------------------------------- the schemas

type Schema = Record<string, unknown> | boolean;

const SCHEMA_ROOT = new URL('../../profile/schemas/', import.meta.url);
const loaded = new Map<string, Record<string, unknown>>();

function schemaFile(file: string): Record<string, unknown> {
  let schema = loaded.get(file);
  if (schema === undefined) {
    schema = JSON.parse(readFileSync(new URL(file, SCHEMA_ROOT), 'utf8')) as Record<string, unknown>;
    loaded.set(file, schema);
  }
  return schema;
}

/** A schema node and the file its relative references resolve against. */
interface Located {
  readonly node: Schema;
  readonly file: string;
  /** The definition or file name the node was reached through, if by $ref. */
  readonly definition?: string;
}

function resolveRef(ref: string, from: string): Located {
  const [target = '', fragment = ''] = ref.split('#');
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
  const file = target === '' ? from : target === 'cpr.schema.json' ? 'cpr.schema.json' : dir + target;
  let node: unknown = schemaFile(file);
  for (const part of fragment.split('/').filter((p) => p !== '')) node = (node as Record<string, unknown>)[part];
  const definition = fragment === '' ? target.replace(/\.schema\.json$/, '') : fragment.split('/').at(-1)!;
  return { node: node as Schema, file, definition };
}

/** A node with its $ref followed (the definition kept). */
function follow(located: Located): Located {
  const { node } = located;
  if (typeof node === 'object' && typeof node.$ref === 'string') {
    const target = resolveRef(node.$ref, located.file);
    return follow({ ...target, definition: target.definition });
  }
  return located;
}

/** The member schemas of an object node, gathered from its properties and from every branch (oneOf, anyOf, allOf, then, else). */
function memberSchemas(located: Located): Map<string, Located[]> {
  const out = new Map<string, Located[]>();
  const visit = (at: Located): void => {
    const { node, file } = follow(at);
    if (typeof node !== 'object') return;
    for (const [name, child] of Object.entries((node.properties as Record<string, Schema> | undefined) ?? {})) {
      out.set(name, [...(out.get(name) ?? []), { node: child, file }]);
    }
    for (const key of ['oneOf', 'anyOf', 'allOf']) for (const branch of (node[key] as Schema[] | undefined) ?? []) visit({ node: branch, file });
    for (const key of ['then', 'else']) if (node[key] !== undefined) visit({ node: node[key] as Schema, file });
  };
  visit(located);
  return out;
}

/** What each schema definition holds. */
const DEFINITION_KINDS: Readonly<Record<string, FieldKind>> = {
  uuid: 'identifier',
  timestamp: 'timestamp',
  amount: 'amount',
  b64url32: 'binary',
  kid: 'binary',
  b64url64: 'signature',
  jwk: 'public-key',
  name: 'free-text',
  remittance: 'free-text',
  max35Text: 'free-text',
  chainId: 'code',
  evmChainId: 'code',
  evmAddress: 'code',
  domainSeparator: 'code',
  iban: 'code',
  bic: 'code',
  purposeCode: 'code',
  openCode: 'code',
  noPayerData: 'opaque',
};

/** Definitions whose members the inventory walks into. */
const WALKED = new Set(['asset', 'payee', 'value', 'cash-pack', 'renewal-entry', 'redemption-request']);

interface Classified {
  readonly kind: FieldKind | 'object';
  readonly definition?: string;
  readonly text?: TextBounds;
  readonly values?: readonly string[];
}

function classify(candidates: readonly Located[]): Classified {
  const followed = candidates.map(follow);
  const byDefinition = followed.find((c) => c.definition !== undefined && (DEFINITION_KINDS[c.definition] !== undefined || WALKED.has(c.definition)));
  const definition = byDefinition?.definition;
  if (definition !== undefined && WALKED.has(definition)) return { kind: 'object', definition };
  if (definition !== undefined) {
    const kind = DEFINITION_KINDS[definition]!;
    return { kind, definition, ...(kind === 'free-text' ? textBounds(byDefinition!.node) : {}) };
  }
  const nodes = followed.map((c) => c.node).filter((n): n is Record<string, unknown> => typeof n === 'object');
  const node = nodes.find((n) => n.type !== undefined || n.const !== undefined || n.enum !== undefined || n.properties !== undefined) ?? nodes[0];
  if (node === undefined) return { kind: 'opaque' };
  if (node.const !== undefined) return { kind: 'enumeration', values: [String(node.const)] };
  if (Array.isArray(node.enum)) return { kind: 'enumeration', values: node.enum.map(String) };
  if (node.type === 'string' && Array.isArray(node.examples)) return { kind: 'enumeration', values: node.examples.map(String) };
  if (node.type === 'string' && node.maxLength !== undefined) return { kind: 'free-text', ...textBounds(node) };
  if (node.type === 'string') return { kind: 'code' };
  if (node.type === 'integer') return { kind: 'integer' };
  if (node.type === 'array') return { kind: 'list' };
  if (node.type === 'object' && (node.properties !== undefined || nodes.some((n) => n.properties !== undefined))) return { kind: 'object' };
  return { kind: 'opaque' };
}

function textBounds(node: Schema): { text?: TextBounds } {
  if (typeof node !== 'object') return {};
  const pattern = typeof node.pattern === 'string' ? /\{(\d+),(\d+)\}\$$/.exec(node.pattern) : null;
  if (pattern) return { text: { min: Number(pattern[1]), max: Number(pattern[2]), ascii: node.pattern!.toString().includes('\\x20-\\x7e') } };
  if (typeof node.maxLength === 'number') return { text: { min: typeof node.minLength === 'number' ? node.minLength : 0, max: node.maxLength, ascii: false } };
  return {};
}

interface DocumentSpec {
  /** Schema file under profile/schemas/. */
  readonly file: string;
  readonly readers: readonly Role[];
  readonly rootKind: FieldKind;
  /** Members whose every member is signed (their own `signature` included): an alteration after signing is INVALID_SIGNATURE. */
  readonly signed: readonly string[];
  /**
   * Members the Operator signed and the caller presents (the cash-pack): they prove
   * the instrument and name it, every other check reads the Operator's stored
   * state (PROFILE.md §5), so only their form and their signature are judged.
   */
  readonly presented?: readonly string[];
}

/** The documents a role reads: who reads them, and what their root is. */
const READ_DOCUMENTS: Readonly<Record<string, DocumentSpec>> = {
  cpr: { file: 'cpr.schema.json', readers: ['paying-app'], rootKind: 'document', signed: [] },
  'lock-request': { file: 'cashpack/lock-request.schema.json', readers: ['operator'], rootKind: 'request-body', signed: [''] },
  'renew-request': { file: 'cashpack/renew-request.schema.json', readers: ['operator'], rootKind: 'request-body', signed: ['/cash_pack', '/renewal'], presented: ['/cash_pack'] },
  'redeem-request': { file: 'cashpack/redeem-request.schema.json', readers: ['operator'], rootKind: 'request-body', signed: ['/cash_pack', '/redemption'], presented: ['/cash_pack'] },
};

/**
 * The CPR members a derived Payment copies (PROFILE.md §9): the Payment members
 * that payment.schema.json names as the CPR's (payee, value, the members of
 * intent.conditions, context.request_id), and memo, which becomes
 * intent.reference.
 */
function paymentSources(): string[] {
  const payment = schemaFile('payment.schema.json');
  const properties = payment.properties as Record<string, Record<string, unknown>>;
  const defs = payment.$defs as Record<string, Record<string, unknown>>;
  const sameName = ['payee', 'value'].filter((name) => properties[name] !== undefined).map((name) => `/${name}`);
  const conditions = Object.keys(defs.conditions!.properties as Record<string, unknown>).map((name) => `/${name}`);
  const context = (properties.context!.properties as Record<string, unknown>).request_id !== undefined ? ['/request_id'] : [];
  return [...sameName, ...conditions, ...context, '/memo'];
}

/**
 * Classes about what a value means, which a presented (Operator-signed) member does not have: altering it is `signed.altered`;
 * and a signature over another signing input, which only its signer, the Operator, could make.
 */
const MEANING_CLASSES: ReadonlySet<FieldClassId> = new Set(['timestamp.dst', 'timestamp.boundary', 'amount.large', 'amount.bound', 'key.weak', 'signature.input']);

/** Code definitions written without letters: no letter case to vary. */
const CASELESS = new Set(['evmChainId']);

const under = (pointer: string, prefixes: readonly string[]): boolean => prefixes.some((p) => pointer === p || pointer.startsWith(`${p}/`));

function documentFields(document: string, spec: DocumentSpec): Field[] {
  const out: Field[] = [];
  const copied = document === 'cpr' ? paymentSources() : [];
  const add = (pointer: string, c: Classified & { kind: FieldKind }, own?: readonly FieldClassId[]): void => {
    const signed = spec.signed.some((s) => pointer !== s && under(pointer, [s]));
    const presented = under(pointer, spec.presented ?? []);
    const ofKind = (own ?? CLASSES_OF_KIND[c.kind]).filter((k) => !(presented && MEANING_CLASSES.has(k)) && !(k === 'code.case' && CASELESS.has(c.definition ?? '')));
    const classes = [...ofKind, ...(signed ? (['signed.altered'] as const) : []), ...(under(pointer, copied) ? (['derived.exact'] as const) : [])];
    out.push({
      id: `${document}${pointer}`,
      document,
      pointer,
      kind: c.kind,
      readers: spec.readers,
      classes: [...new Set(classes)],
      source: `profile/schemas/${spec.file}`,
      ...(c.definition !== undefined ? { definition: c.definition } : {}),
      ...(c.text !== undefined ? { text: c.text } : {}),
      ...(c.values !== undefined ? { values: c.values } : {}),
    });
  };
  const walk = (located: Located, pointer: string): void => {
    for (const [name, candidates] of memberSchemas(located)) {
      const c = classify(candidates);
      const at = `${pointer}/${name}`;
      if (c.kind === 'object') {
        for (const candidate of candidates) walkOnce(candidate, at);
        continue;
      }
      if (document === 'cpr' && name === 'extensions') {
        // PROFILE.md §7.5: no payer data at any depth; unrecognized keys ignored.
        add(at, { kind: 'opaque' }, ['payer.depth']);
        continue;
      }
      add(at, c as Classified & { kind: FieldKind });
    }
  };
  // An object member met in several branches is walked once over all of them.
  const walking = new Map<string, Located[]>();
  const walkOnce = (located: Located, pointer: string): void => {
    walking.set(pointer, [...(walking.get(pointer) ?? []), located]);
  };
  add('', { kind: spec.rootKind });
  walk({ node: schemaFile(spec.file), file: spec.file }, '');
  while (walking.size > 0) {
    const [pointer, candidates] = walking.entries().next().value!;
    walking.delete(pointer);
    walk({ node: { oneOf: candidates.map((c) => follow(c).node) }, file: follow(candidates[0]!).file }, pointer);
  }
  return out.filter((f, i) => out.findIndex((g) => g.id === f.id) === i);
}

// ------------------------------------------------------------- test control

const CONTROL_KINDS: Readonly<Record<ControlMemberKind, { readonly kind: FieldKind; readonly classes?: readonly FieldClassId[] }>> = {
  enumeration: { kind: 'enumeration' },
  amount: { kind: 'amount' },
  balance: { kind: 'amount', classes: ['amount.large', 'amount.non-canonical'] },
  text: { kind: 'free-text' },
  // The payee's own rule for extensions it is asked to serve: no payer data at any depth, and the rest carried as written.
  extensions: { kind: 'opaque', classes: ['payer.depth', 'json.lookalike'] },
  // Keys and assets are the harness's own setup: they carry no data into what the target serves.
  jwk: { kind: 'public-key', classes: [] },
  asset: { kind: 'opaque', classes: [] },
  integer: { kind: 'integer' },
  boolean: { kind: 'opaque', classes: [] },
  // The clock: every instant the target writes (issued_at, created_at ...) comes from it.
  timestamp: { kind: 'timestamp', classes: ['timestamp.dst', 'timestamp.fraction'] },
};

/** Texts a payee serves as asked, whatever they look like: strings that look like dates or numbers too. */
const LOOKALIKE_TEXT = new Set(['payee-request/memo', 'payee-request/display_name']);

/** The bounds of the payee's text inputs: those of the CPR members they become. */
const CONTROL_TEXT: Readonly<Record<string, TextBounds>> = {
  memo: { min: 0, max: 140, ascii: false },
  display_name: { min: 1, max: 140, ascii: false },
  holder: { min: 1, max: LEASE.holderMaxLength, ascii: false },
};

function controlFields(): Field[] {
  return Object.entries(CONTROL_INPUTS).flatMap(([message, input]) => [
    { id: `control:${message}`, document: `control:${message}`, pointer: '', kind: 'document' as const, readers: input.readers, classes: [...CLASSES_OF_KIND.document, 'http.problem'], source: 'profile/control.ts' },
    ...Object.entries(input.members).map(([member, memberKind]): Field => {
      const { kind, classes } = CONTROL_KINDS[memberKind];
      return {
        id: `control:${message}/${member}`,
        document: `control:${message}`,
        pointer: `/${member}`,
        kind,
        readers: input.readers,
        classes: [...(classes ?? CLASSES_OF_KIND[kind]), ...(LOOKALIKE_TEXT.has(`${message}/${member}`) ? (['json.lookalike'] as const) : [])],
        source: 'profile/control.ts',
        ...(CONTROL_TEXT[member] !== undefined && memberKind === 'text' ? { text: CONTROL_TEXT[member] } : {}),
      };
    }),
  ]);
}

// ---------------------------------------------------------- derivation input

/**
 * PROFILE.md §9 "Derivation input": payer, rail and authorization, which
 * payment.schema.json leaves open (`true`) because the Payment copies them
 * unchanged; the instant the application takes for now; the payer's amount.
 */
function derivationFields(): Field[] {
  const payment = schemaFile('payment.schema.json');
  const properties = payment.properties as Record<string, unknown>;
  const context = (properties.context as { properties: Record<string, unknown> }).properties;
  const copied = [...Object.keys(properties).filter((k) => properties[k] === true), ...Object.keys(context).filter((k) => context[k] === true)];
  const source = 'PROFILE.md §9, profile/schemas/payment.schema.json';
  return [
    ...copied.map((name): Field => ({ id: `derivation-context/${name}`, document: 'derivation-context', pointer: `/${name}`, kind: 'opaque', readers: ['paying-app'], classes: ['derived.exact'], source })),
    { id: 'derivation-context/now', document: 'derivation-context', pointer: '/now', kind: 'timestamp', readers: ['paying-app'], classes: ['timestamp.dst', 'timestamp.boundary'], source },
    { id: 'derivation-context/payer_amount', document: 'derivation-context', pointer: '/payer_amount', kind: 'amount', readers: ['paying-app'], classes: CLASSES_OF_KIND.amount, source },
  ];
}

// ------------------------------------------------------------- HTTP surfaces

/** What every resource of PROFILE.md §4 is judged on: its methods and the paths near it (§11). */
const ROUTE_CLASSES = ['http.method', 'http.path'] as const;

/** The requests a role answers that carry no body schema: what is read is a path, a header, a token. */
const SURFACES: readonly Field[] = [
  { id: 'GET /cpr/{token}', document: 'GET /cpr/{token}', pointer: '', kind: 'token', readers: ['payee'], classes: [...CLASSES_OF_KIND.token, 'http.problem'], source: 'PROFILE.md §10' },
  { id: 'retrieved: GET <endpoint>/cpr/{token}', document: 'retrieved: GET <endpoint>/cpr/{token}', pointer: '', kind: 'retrieval', readers: ['paying-app'], classes: CLASSES_OF_KIND.retrieval, source: 'PROFILE.md §8.3, §10' },
  { id: 'POST /_control/payee/requests', document: 'POST /_control/payee/requests', pointer: '', kind: 'public-get', readers: ['payee'], classes: ['http.untrusted-headers'], source: 'PROFILE.md §8.1, §12' },
  { id: 'GET /v1/cashpack/{pack_id}/status', document: 'GET /v1/cashpack/{pack_id}/status', pointer: '', kind: 'authenticated-get', readers: ['operator'], classes: [...CLASSES_OF_KIND['authenticated-get'], ...ROUTE_CLASSES], source: 'PROFILE.md §2.4, §5 status' },
  { id: 'GET /.well-known/cashpack-policy.json', document: 'GET /.well-known/cashpack-policy.json', pointer: '', kind: 'public-get', readers: ['operator'], classes: [...CLASSES_OF_KIND['public-get'], ...ROUTE_CLASSES], source: 'PROFILE.md §4.8' },
  { id: 'GET /.well-known/cashpack-pubkey.json', document: 'GET /.well-known/cashpack-pubkey.json', pointer: '', kind: 'public-get', readers: ['operator'], classes: [...CLASSES_OF_KIND['public-get'], ...ROUTE_CLASSES], source: 'PROFILE.md §4.8' },
  // The POST endpoints as resources: their bodies are documents above; here the method and the path.
  ...['POST /v1/cashpack/issue', 'POST /v1/cashpack/renew', 'POST /v1/cashpack/redeem'].map((id): Field => ({ id, document: id, pointer: '', kind: 'public-get', readers: ['operator'], classes: ROUTE_CLASSES, source: 'PROFILE.md §4, §11' })),
  // The lease's id (capability lease): it names the lease to renew or release, and the Control-Lease header carries it on a clock move.
  ...['POST /_control/lease/{lease_id}', 'DELETE /_control/lease/{lease_id}', 'POST /_control/clock Control-Lease'].map(
    (id): Field => ({ id, document: id, pointer: '', kind: 'token', readers: ['payee', 'operator'], classes: ['token.altered', 'http.problem'], source: 'PROFILE.md §12 (lease)' }),
  ),
];

let inventory: readonly Field[] | undefined;

/** Every field a role reads, with its classes; computed once. */
export function fieldInventory(): readonly Field[] {
  inventory ??= Object.freeze([
    ...Object.entries(READ_DOCUMENTS).flatMap(([document, spec]) => documentFields(document, spec)),
    ...derivationFields(),
    ...controlFields(),
    ...SURFACES,
  ]);
  return inventory;
}

/** The field with this id; throws for an unknown one (a property naming a field the inventory does not have is a defect of the property). */
export function field(id: string): Field {
  const found = fieldInventory().find((f) => f.id === id);
  if (!found) throw new Error(`no field ${JSON.stringify(id)} in the inventory`);
  return found;
}

/** The fields of a document (its root included), in inventory order. */
export function fieldsOf(document: string): Field[] {
  return fieldInventory().filter((f) => f.document === document);
}
