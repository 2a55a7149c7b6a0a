// The knobbed Operator of reference/faults/knobs.ts with no knob set, served
// over plain HTTP with test control: the knob code's own check. With a knob set
// it is a fuzzer mutant (reference/mutants.ts), started like any mutant; with
// none it must answer as the reference does, so what the fuzzer finds with a
// knob set is that knob's doing.
import { newUuid } from '../../../profile/index.ts';
import { Clock } from '../../../reference/clock.ts';
import { createControlHandler } from '../../../reference/control.ts';
import { knobbedOperator } from '../../../reference/faults/knobs.ts';
import { problemResponse } from '../../../reference/http/respond.ts';
import { listen } from '../../../reference/http/server.ts';
import { NO_FAULTS } from '../../../reference/mutants.ts';
import type { OperatorContext } from '../../../reference/operator/context.ts';
import { createOperatorKeys } from '../../../reference/operator/keys.ts';
import { resolvePolicy, type Policy } from '../../../reference/operator/policy.ts';
import { route } from '../../../reference/operator/router.ts';
import { OperatorState } from '../../../reference/operator/state.ts';
import { createRouter } from '../../../reference/router.ts';

export async function startKnoblessOperator(policy: Partial<Policy> = {}): Promise<{ readonly url: string; close(): Promise<void> }> {
  const clock = new Clock();
  const keys = createOperatorKeys();
  const resolved = resolvePolicy(policy, keys.jwk.kid);
  const ctx: OperatorContext = { clock, policy: resolved, keys, state: new OperatorState(resolved.request_window_seconds, NO_FAULTS), faults: NO_FAULTS, newPackId: newUuid };
  const knobbed = knobbedOperator(ctx, {});
  const handler = createRouter({
    payee: () => problemResponse('NOT_FOUND', 'this test server has no payee'),
    operator: (request) => knobbed(request) ?? route(ctx, request, { control: true }),
    control: createControlHandler(clock),
    controlEnabled: true,
  });
  const server = await listen(handler, { port: 0 });
  return { url: server.url, close: () => server.close() };
}
