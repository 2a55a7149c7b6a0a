// The field-class properties: each generates, in every case, one member of
// every (field, class) pair it covers (fields.ts, generators/classes/), sends it
// through every path that reads the field, and judges the outcome with the
// profile's own validators and rules.
import type { PropertyDefinition } from '../types.ts';
import { APP_AMOUNTS } from './app-amounts.ts';
import { APP_DERIVED } from './app-derived.ts';
import { APP_ENCODINGS } from './app-encodings.ts';
import { APP_FIELDS } from './app-fields.ts';
import { APP_RETRIEVAL } from './app-retrieval.ts';
import { APP_TIME } from './app-time.ts';
import { CONTROL_CLOCK } from './control-clock.ts';
import { CONTROL_LEASE } from './control-lease.ts';
import { OPERATOR_AMOUNTS } from './operator-amounts.ts';
import { OPERATOR_FIELDS } from './operator-fields.ts';
import { OPERATOR_HTTP } from './operator-http.ts';
import { OPERATOR_ROUTES } from './operator-routes.ts';
import { OPERATOR_SIGNATURES } from './operator-signatures.ts';
import { OPERATOR_TIME } from './operator-time.ts';
import { PAYEE_INPUTS } from './payee-inputs.ts';
import { PAYEE_TIME } from './payee-time.ts';
import { PAYEE_TOKENS } from './payee-tokens.ts';

export const FIELD_PROPERTIES: readonly PropertyDefinition[] = [APP_FIELDS, APP_TIME, APP_DERIVED, APP_AMOUNTS, APP_ENCODINGS, APP_RETRIEVAL, PAYEE_INPUTS, PAYEE_TOKENS, PAYEE_TIME, OPERATOR_FIELDS, OPERATOR_SIGNATURES, OPERATOR_TIME, OPERATOR_AMOUNTS, OPERATOR_HTTP, OPERATOR_ROUTES, CONTROL_LEASE, CONTROL_CLOCK];
