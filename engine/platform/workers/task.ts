import type { MessagePort } from 'node:worker_threads';
import { ApiError, isStackOverflow, reviveError, tooComplex } from '../../core/errors.js';

/**
 * The worker side of a BoundedPool (pool.ts). A worker module exports its entry as
 * `export default boundedTask(run, prepare?)`: the wrapper tells the pool the moment the
 * task's own work starts (the wall-clock limit counts from there, not from the queue or
 * the loading of the worker's modules) and returns
 * the outcome in a form that survives the structured clone: an ApiError thrown by
 * the work keeps its status, code and details (a clone would keep only the message),
 * and a stack overflow (deeply nested input) is the caller's 422, not a crash.
 */
export const TASK_PICKED = 'picked';
export const TASK_STARTED = 'started';

export interface TaskEnvelope {
  task: unknown;
  port: MessagePort;
}

interface WireError {
  status: number;
  code: string;
  message: string;
  details?: ApiError['details'];
  headers?: Record<string, string>;
}

export type WireOutcome = { value: unknown } | { error: WireError };

export function boundedTask<T, P = undefined>(
  run: (task: T, prepared: P) => unknown,
  /** Work of ours before the task's own (e.g. importing its module), not counted in its wall-clock limit. */
  prepare?: (task: T) => P | Promise<P>,
): (envelope: TaskEnvelope) => Promise<WireOutcome> {
  return async ({ task, port }) => {
    port.postMessage(TASK_PICKED);
    let prepared: P;
    try {
      prepared = (await prepare?.(task as T)) as P;
    } finally {
      port.postMessage(TASK_STARTED);
      port.close();
    }
    try {
      return { value: await run(task as T, prepared) };
    } catch (err) {
      const known = err instanceof ApiError ? err : isStackOverflow(err) ? tooComplex('the input is nested too deeply') : undefined;
      if (!known) throw err;
      return { error: { status: known.status, code: known.code, message: known.message, details: known.details, headers: known.headers } };
    }
  };
}

/** The pool's side: the worker's value, or its ApiError rethrown. */
export function fromWire(outcome: WireOutcome): unknown {
  if ('error' in outcome) {
    const { code, message, details, headers } = outcome.error;
    throw reviveError(code, message, { details, headers });
  }
  return outcome.value;
}
