// The model's judgement of requests that were in flight together: they are
// correct when some sequential order of them explains every answer (and, once
// read, the balances they leave): linearisability, with the model as the
// sequential specification. Every order of the requests is tried on a copy of
// the model (at most a few requests, so at most a few dozen orders).
import type { OperatorModel, Prediction } from './model.ts';

/** One request of the group, as the model decides it and as its answer is compared. */
export interface Concurrent<R> {
  /** The model's decision on this request, in the state `model` is in. */
  decide(model: OperatorModel): { readonly outcome: Prediction<object>; commit(reply: R | undefined): void };
  /** Whether `reply` is the answer `outcome` predicts (status, problem code and the members the order decides). */
  explains(outcome: Prediction<object>, reply: R): boolean;
}

/** How far one order of the requests explains the answers. */
interface OrderRun {
  /** Indices of the requests, in the order tried. */
  readonly order: readonly number[];
  /** How many of them, from the first, the answers agree with. */
  readonly explained: number;
  /** The model after the explained prefix (after every request, when all are explained). */
  readonly model: OperatorModel;
}

/** Every order of 0..n-1, lexicographically. */
export function orders(n: number): number[][] {
  if (n <= 1) return [Array.from({ length: n }, (_, i) => i)];
  return Array.from({ length: n }, (_, first) => orders(n - 1).map((rest) => [first, ...rest.map((i) => (i >= first ? i + 1 : i))])).flat();
}

/** Each order run on a copy of `model`, as far as the answers agree with it. */
function tryOrders<R>(model: OperatorModel, ops: readonly Concurrent<R>[], replies: readonly R[]): OrderRun[] {
  return orders(ops.length).map((order) => {
    const copy = model.clone();
    let explained = 0;
    for (const i of order) {
      const decision = ops[i]!.decide(copy);
      if (!ops[i]!.explains(decision.outcome, replies[i]!)) break;
      decision.commit(replies[i]);
      explained++;
    }
    return { order, explained, model: copy };
  });
}

/** The state each order leaves when every request answers as the model predicts: what any correct Operator may end in. */
export function modelOrders<R>(model: OperatorModel, ops: readonly Concurrent<R>[]): { readonly order: readonly number[]; readonly outcomes: readonly Prediction<object>[]; readonly model: OperatorModel }[] {
  return orders(ops.length).map((order) => {
    const copy = model.clone();
    const outcomes: Prediction<object>[] = [];
    for (const i of order) {
      const decision = ops[i]!.decide(copy);
      outcomes[i] = decision.outcome;
      decision.commit(undefined);
    }
    return { order, outcomes, model: copy };
  });
}

/**
 * The verdict on the answers: the orders that explain every one, or, when none
 * does, the order that explains the most (the first of those) and the request
 * where it stops, and whether that request's answer is one some order gives it
 * (only their combination is wrong: a concurrency fault) or one no order does,
 * not even the orders that take it first, as if alone (a fault of its own rule).
 */
export function linearize<R>(model: OperatorModel, ops: readonly Concurrent<R>[], replies: readonly R[]): { readonly explained: readonly OrderRun[] } | { readonly explained: readonly []; readonly best: OrderRun; readonly at: number; readonly alone: boolean } {
  const runs = tryOrders(model, ops, replies);
  const explained = runs.filter((r) => r.explained === ops.length);
  if (explained.length > 0) return { explained };
  const best = runs.reduce((a, b) => (b.explained > a.explained ? b : a));
  const at = best.order[best.explained]!;
  // Explained somewhere: in some order, this request was reached and agreed.
  const alone = runs.some((r) => r.order.indexOf(at) < r.explained);
  return { explained: [], best, at, alone };
}
