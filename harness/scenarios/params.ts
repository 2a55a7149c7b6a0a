// A step's parameters or a check's argument, after its templates were rendered,
// read with their types checked. The loader validates what is written against
// the vocabulary's schema (vocabulary.ts), but a template that is a whole
// `${expr}` renders to whatever the expression gives: each read here checks what
// the action or check needs, and a value of the wrong type is the scenario's
// fault (SCENARIO_INVALID, naming the parameter), never the target's.
import type { Role } from '../../profile/registry.ts';
import { ROLES } from '../../profile/registry.ts';
import { StepError } from './context.ts';

type Values = Readonly<Record<string, unknown>>;

export class Params {
  /** `what` names the action or check in messages: `clock`, `signature_valid`, `tamper.resign`. */
  constructor(
    readonly what: string,
    private readonly values: Values,
  ) {}

  /** A params object from a value that must be one (a nested parameter, a check's argument). */
  static of(what: string, value: unknown): Params {
    if (!isPlainObject(value)) throw invalid(what, describe(value), 'an object');
    return new Params(what, value);
  }

  /** Any value, as rendered: a JSON body, a CPR, a pack. */
  value(name: string): unknown {
    return this.values[name];
  }

  has(name: string): boolean {
    return this.values[name] !== undefined;
  }

  /** Every parameter, as rendered (to build another step from this one). */
  all(): Values {
    return this.values;
  }

  /** A string; numbers and booleans read as their text (a template's arithmetic gives numbers). */
  text(name: string): string;
  text(name: string, optional: 'optional'): string | undefined;
  text(name: string, optional?: 'optional'): string | undefined {
    const v = this.values[name];
    if (v === undefined && optional) return undefined;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
    throw this.bad(name, v, 'a string');
  }

  /** A key name: a non-empty string. */
  key(name: string): string;
  key(name: string, optional: 'optional'): string | undefined;
  key(name: string, optional?: 'optional'): string | undefined {
    const v = this.values[name];
    if (v === undefined && optional) return undefined;
    if (typeof v === 'string' && v !== '') return v;
    throw this.bad(name, v, 'a key name');
  }

  /** A whole number: an integer, or a decimal string of one (a template's arithmetic on decimal strings gives strings). */
  integer(name: string): number;
  integer(name: string, optional: 'optional'): number | undefined;
  integer(name: string, optional?: 'optional'): number | undefined {
    const v = this.values[name];
    if (v === undefined && optional) return undefined;
    const n = typeof v === 'string' && /^-?(0|[1-9][0-9]*)$/.test(v) ? Number(v) : v;
    if (typeof n === 'number' && Number.isSafeInteger(n)) return n;
    throw this.bad(name, v, 'a whole number');
  }

  boolean(name: string): boolean | undefined {
    const v = this.values[name];
    if (v === undefined || typeof v === 'boolean') return v;
    throw this.bad(name, v, 'true or false');
  }

  /** A JSON object (a plain one, not an array). */
  object(name: string): Values | undefined {
    const v = this.values[name];
    if (v === undefined || isPlainObject(v)) return v;
    throw this.bad(name, v, 'an object');
  }

  /** A nested parameter object, read the same way. */
  nested(name: string): Params | undefined {
    const v = this.object(name);
    return v === undefined ? undefined : new Params(`${this.what}.${name}`, v);
  }

  /** A list of any values. */
  list(name: string): readonly unknown[];
  list(name: string, optional: 'optional'): readonly unknown[] | undefined;
  list(name: string, optional?: 'optional'): readonly unknown[] | undefined {
    const v = this.values[name];
    if (v === undefined && optional) return undefined;
    if (Array.isArray(v)) return v;
    throw this.bad(name, v, 'a list');
  }

  /** A list of strings. */
  strings(name: string): readonly string[] | undefined {
    const v = this.values[name];
    if (v === undefined || (Array.isArray(v) && v.every((s) => typeof s === 'string'))) return v as readonly string[] | undefined;
    throw this.bad(name, v, 'a list of strings');
  }

  /** One of a fixed set of words. */
  choice<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.values[name];
    if (v === undefined || (typeof v === 'string' && (allowed as readonly string[]).includes(v))) return v as T | undefined;
    throw this.bad(name, v, `one of ${allowed.join(', ')}`);
  }

  /** One of a fixed set of words, which the step must give. */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T {
    const v = this.choice(name, allowed);
    if (v === undefined) throw this.bad(name, v, `one of ${allowed.join(', ')}`);
    return v;
  }

  role(name = 'role'): Role | undefined {
    return this.choice(name, ROLES);
  }

  private bad(name: string, value: unknown, expected: string): StepError {
    return invalid(`${this.what}: ${name}`, describe(value), expected);
  }
}

function invalid(where: string, got: string, expected: string): StepError {
  return new StepError('error', `${where} rendered to ${got}, not ${expected}: check the template that gives it`, 'SCENARIO_INVALID');
}

function isPlainObject(v: unknown): v is Values {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
