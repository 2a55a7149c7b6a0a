// The payee's own configuration (PROFILE.md §12 `GET /_control/payee/config`),
// read once per run of a property: its base URL, token lifetime and validity
// window are the boundaries its properties generate around.
import { StepError, type ScenarioContext } from '../../scenarios/context.ts';
import { send } from '../../scenarios/http.ts';

export interface PayeeConfig {
  readonly baseUrl: string;
  readonly tokenLifetimeSeconds: number;
  readonly validitySeconds: number;
}

const configs = new WeakMap<ScenarioContext, Promise<PayeeConfig>>();

async function read(ctx: ScenarioContext): Promise<PayeeConfig> {
  const answer = await send(ctx, 'payee', { method: 'GET', path: '/_control/payee/config' });
  const body = answer.body as { base_url?: unknown; token_lifetime_seconds?: unknown; request_validity_seconds?: unknown } | undefined;
  if (answer.status !== 200 || typeof body?.base_url !== 'string' || typeof body.token_lifetime_seconds !== 'number' || typeof body.request_validity_seconds !== 'number') {
    throw new StepError('error', `test control GET /_control/payee/config answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  }
  return { baseUrl: body.base_url, tokenLifetimeSeconds: body.token_lifetime_seconds, validitySeconds: body.request_validity_seconds };
}

export function payeeConfig(ctx: ScenarioContext): Promise<PayeeConfig> {
  let config = configs.get(ctx);
  if (!config) {
    config = read(ctx);
    configs.set(ctx, config);
  }
  return config;
}
