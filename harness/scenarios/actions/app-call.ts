// A call to the paying application, its crash read as its answer.
import { TransportError } from '../../adapters/types.ts';
import { StepError } from '../context.ts';

/**
 * A paying application that crashes on an input (a module that throws, a child
 * that answers an error) has answered: that is its answer (spec §4.8: handled
 * gracefully, never an error), so it becomes a result no `accepted` or
 * `rejected` check can pass. An answer the adapter cannot read (a line that is
 * not JSON, a result of the wrong shape) is a harness error,
 * HARNESS_ADAPTER_PROTOCOL; no answer at all is HARNESS_TARGET_UNREACHABLE.
 */
export async function appCall<T>(call: () => Promise<T>): Promise<T | { ok: false; crashed: true; code: 'CRASHED'; message: string }> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    if (error.code === 'CRASHED') return { ok: false, crashed: true, code: 'CRASHED', message: error.message };
    if (error.code === 'PROTOCOL') throw new StepError('error', `the paying application's adapter broke its contract: ${error.message}`, 'HARNESS_ADAPTER_PROTOCOL');
    throw new StepError('error', `the paying application did not answer: ${error.code}: ${error.message}`, 'HARNESS_TARGET_UNREACHABLE');
  }
}
