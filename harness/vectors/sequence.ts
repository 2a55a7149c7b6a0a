// Runs a request/response sequence (retrieval-token.json, replay.json) against an
// HTTP role: fills the placeholders of each step, signs what it says to sign,
// sends it, checks the response and binds variables from it. The step language
// is documented in vectors/README.md ("Sequences").
import { randomBytes, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { signObject, type MessageType } from '../../profile/signing.ts';
import { formatTimestamp, parseTimestamp } from '../../profile/time.ts';
import { TransportError, type HttpRole, type WireResponse } from '../adapters/types.ts';
import { testKey } from './keys.ts';
import type { Json, VectorTest } from './model.ts';
import { show } from './check/types.ts';
import { mediaType } from '../media-type.ts';

type SequenceOutcome =
  | { readonly status: 'passed' }
  | { readonly status: 'failed'; readonly step: number; readonly detail: string }
  | { readonly status: 'skipped'; readonly detail: string }
  | { readonly status: 'error'; readonly step: number; readonly detail: string };

interface Step {
  readonly comment: string;
  readonly request: {
    readonly method: string;
    readonly path: string;
    readonly headers?: Record<string, string>;
    readonly body?: Json;
    readonly sign?: { readonly message_type: MessageType; readonly key: string; readonly at?: string };
    readonly save_as?: string;
  };
  readonly expect: {
    readonly status: number;
    readonly code?: string;
    readonly content_type?: string;
    readonly headers?: Record<string, string>;
    readonly json?: Record<string, Json>;
  };
  readonly bind?: Record<string, string>;
}

/**
 * A step that cannot be carried out as written: a defect of the vector, not of the target.
 * Internal signal, caught in vectors/sequence.ts: the vector's outcome is an error naming it.
 */
class TemplateError extends Error {}

/** RFC 6901. */
function resolvePointer(value: unknown, pointer: string): { found: boolean; value?: unknown } {
  if (pointer === '') return { found: true, value };
  if (!pointer.startsWith('/')) return { found: false };
  let node = value;
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(part) && Number(part) < node.length) node = node[Number(part)];
    else if (typeof node === 'object' && node !== null && !Array.isArray(node) && Object.hasOwn(node, part)) node = (node as Record<string, unknown>)[part];
    else return { found: false };
  }
  return { found: true, value: node };
}

class Scope {
  private readonly vars = new Map<string, unknown>();
  private readonly fresh = new Map<string, string>();

  set(name: string, value: unknown): void {
    this.vars.set(name, value);
  }

  /** One placeholder expression (README "Placeholders"). */
  evaluate(expr: string): unknown {
    const colon = expr.indexOf(':');
    const fn = colon < 0 ? '' : expr.slice(0, colon);
    const arg = colon < 0 ? expr : expr.slice(colon + 1);
    switch (fn) {
      case 'key':
        return structuredClone(testKey(arg).jwk);
      case 'kid':
        return testKey(arg).jwk.kid;
      case 'uuid':
        return this.once(`uuid:${arg}`, () => randomUUID());
      case 'hex32':
        return this.once(`hex32:${arg}`, () => randomBytes(16).toString('hex'));
      case 'upper':
        return String(this.variable(arg)).toUpperCase();
      case 'int':
        return this.arithmetic(arg);
      case 'time': {
        const [base, ...rest] = arg.split(/(?=[+-])/);
        const at = parseTimestamp(this.variable(base ?? ''), 'cpr');
        if (at === undefined) throw new TemplateError(`{{time:${arg}}}: ${base} is not an RFC 3339 instant`);
        const offset = rest.length === 0 ? 0 : this.arithmetic(rest.join(''));
        return formatTimestamp(Math.floor(at / 1000) * 1000 + offset * 1000, 'cashpack');
      }
      case '':
        return this.variable(arg);
      default:
        throw new TemplateError(`unknown placeholder function ${fn}: in {{${expr}}}`);
    }
  }

  /** Fills every placeholder of a template: a whole-string {{x}} takes x's JSON value, an embedded one its text. */
  fill(template: Json): Json {
    if (typeof template === 'string') {
      const whole = /^\{\{([^{}]+)\}\}$/.exec(template);
      if (whole) return structuredClone(this.evaluate(whole[1]!)) as Json;
      return template.replace(/\{\{([^{}]+)\}\}/g, (_m, expr: string) => {
        const value = this.evaluate(expr);
        if (typeof value !== 'string' && typeof value !== 'number') throw new TemplateError(`{{${expr}}} inside a string must be text or a number`);
        return String(value);
      });
    }
    if (Array.isArray(template)) return template.map((t) => this.fill(t));
    if (typeof template === 'object' && template !== null) return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, this.fill(v)]));
    return template;
  }

  private variable(path: string): unknown {
    const slash = path.indexOf('/');
    const name = slash < 0 ? path : path.slice(0, slash);
    if (!this.vars.has(name)) throw new TemplateError(`variable ${name} is not bound`);
    const hit = resolvePointer(this.vars.get(name), slash < 0 ? '' : path.slice(slash));
    if (!hit.found) throw new TemplateError(`${path} does not exist`);
    return hit.value;
  }

  private arithmetic(expr: string): number {
    const terms = expr.match(/[+-]?[^+-]+/g) ?? [];
    let total = 0;
    for (const term of terms) {
      const sign = term.startsWith('-') ? -1 : 1;
      const body = term.replace(/^[+-]/, '');
      const value = /^[0-9]+$/.test(body) ? Number(body) : this.variable(body);
      if (typeof value !== 'number' || !Number.isInteger(value)) throw new TemplateError(`${body} in ${expr} is not an integer`);
      total += sign * value;
    }
    return total;
  }

  private once(id: string, make: () => string): string {
    const known = this.fresh.get(id);
    if (known !== undefined) return known;
    const value = make();
    this.fresh.set(id, value);
    return value;
  }
}

function sign(body: Json, spec: NonNullable<Step['request']['sign']>): Json {
  const at = spec.at ?? '';
  const target = resolvePointer(body, at);
  if (!target.found || typeof target.value !== 'object' || target.value === null || Array.isArray(target.value)) {
    throw new TemplateError(`sign.at ${JSON.stringify(at)} is not an object of the body`);
  }
  const signed = signObject(spec.message_type, target.value as Record<string, unknown>, testKey(spec.key).seed) as Json;
  if (at === '') return signed;
  const copy = structuredClone(body);
  const parts = at.slice(1).split('/');
  const last = parts.pop()!;
  const parent = resolvePointer(copy, parts.length ? `/${parts.join('/')}` : '').value as Record<string, Json>;
  parent[last.replaceAll('~1', '/').replaceAll('~0', '~')] = signed;
  return copy;
}

function parseBody(response: WireResponse): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(response.body)) };
  } catch {
    return { ok: false };
  }
}

/** What differs between the response and the step's expectation, or undefined. */
function compare(response: WireResponse, expect: Step['expect'], scope: Scope): string | undefined {
  const body = parseBody(response);
  const code = body.ok && typeof body.value === 'object' && body.value !== null ? (body.value as Record<string, unknown>)['code'] : undefined;
  const seen = `${response.status}${typeof code === 'string' ? ` ${code}` : ''}`;
  if (response.status !== expect.status) return `expected status ${expect.status}${expect.code ? ` ${expect.code}` : ''}, got ${seen}`;
  if (expect.code !== undefined && code !== expect.code) return `expected code ${expect.code}, got ${seen}`;
  if (expect.content_type !== undefined) {
    const type = mediaType(response.headers) ?? '';
    if (type !== expect.content_type) return `expected Content-Type ${expect.content_type}, got ${type || 'none'}`;
  }
  for (const [name, value] of Object.entries(expect.headers ?? {})) {
    const items = (response.headers[name.toLowerCase()] ?? '').split(',').map((s) => s.trim().toLowerCase());
    if (!items.includes(value.toLowerCase())) return `expected header ${name}: ${value}, got ${show(response.headers[name.toLowerCase()] ?? null)}`;
  }
  for (const [pointer, template] of Object.entries(expect.json ?? {})) {
    if (!body.ok) return 'expected a JSON body';
    const hit = resolvePointer(body.value, pointer);
    const want = scope.fill(template);
    if (!hit.found) return `expected ${pointer || 'the body'} = ${show(want)}, but it is missing`;
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(hit.value)), want)) return `expected ${pointer || 'the body'} = ${show(want)}, got ${show(hit.value)}`;
  }
  return undefined;
}

async function runStep(role: HttpRole, step: Step, scope: Scope): Promise<string | undefined> {
  const path = scope.fill(step.request.path) as string;
  let body = step.request.body === undefined ? undefined : scope.fill(step.request.body);
  if (step.request.sign) {
    if (body === undefined) throw new TemplateError('sign needs a body');
    body = sign(body, step.request.sign);
  }
  if (step.request.save_as) scope.set(step.request.save_as, body);
  const headers: Record<string, string> = { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(step.request.headers ?? {}) };
  const response = await role.send({ method: step.request.method, path, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const difference = compare(response, step.expect, scope);
  if (difference) return difference;
  const parsed = parseBody(response);
  for (const [name, pointer] of Object.entries(step.bind ?? {})) {
    const hit = parsed.ok ? resolvePointer(parsed.value, pointer) : { found: false };
    if (!hit.found) return `cannot bind ${name}: the response has no ${pointer || 'JSON body'}`;
    scope.set(name, hit.value);
  }
  return undefined;
}

/** Runs one sequence case; `capabilities` are the role's test-control capabilities. */
export async function runSequence(test: VectorTest, role: HttpRole | undefined, capabilities: ReadonlySet<string>): Promise<SequenceOutcome> {
  const roleName = test['role'] as string;
  if (!role) return { status: 'skipped', detail: `the target has no ${roleName} role` };
  const missing = (test['needs'] as string[]).filter((c) => !capabilities.has(c));
  if (missing.length > 0) return { status: 'skipped', detail: `needs the test-control capabilit${missing.length === 1 ? 'y' : 'ies'} ${missing.join(', ')}` };
  const scope = new Scope();
  const steps = test['steps'] as unknown as Step[];
  let outcome: SequenceOutcome = { status: 'passed' };
  for (const [i, step] of steps.entries()) {
    try {
      const difference = await runStep(role, step, scope);
      if (difference) {
        outcome = { status: 'failed', step: i + 1, detail: `step ${i + 1} (${step.comment}): ${difference}` };
        break;
      }
    } catch (error) {
      const reason = error instanceof TransportError ? `no response: ${error.code} ${error.message}` : error instanceof TemplateError ? `vector defect: ${error.message}` : String((error as Error)?.message ?? error);
      outcome = { status: 'error', step: i + 1, detail: `step ${i + 1} (${step.comment}): ${reason}` };
      break;
    }
  }
  for (const step of test['finally'] as unknown as Step[]) {
    try {
      await runStep(role, step, scope);
    } catch {
      // Clean-up is best effort and never judged.
    }
  }
  return outcome;
}
