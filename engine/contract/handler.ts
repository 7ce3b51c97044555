import type { AdapterSetup, Call, Output } from './call.js';

/**
 * A code endpoint's handler: the unit behind one manifest whose adapter is
 * `kind: code`. It lives at `engine/kinds/handlers/<category>/<name>.ts`, mirroring the
 * manifest's `endpoints/<category>/<name>.yaml`, and is imported on the endpoint's
 * first call. It returns plain data (the envelope's `result`), a `FileOutput`
 * (./file-output.ts: the engine sends its bytes or hosts it), or a `Reply` for full control of the answer.
 */
export interface PureInput<P> {
  /** Validated, coerced params with defaults applied, as declared in the manifest. */
  params: P;
  /** Fixed inputs from the manifest's `adapter.config.options` (one handler, several endpoints). */
  options: Readonly<Record<string, any>>;
}

export interface HandlerInput<P> extends PureInput<P> {
  call: Call;
  setup: AdapterSetup;
}

export type Handler<P = Record<string, any>> = (input: HandlerInput<P>) => unknown;

/** Type a handler's params (the manifest declares them; this states their TypeScript shape). */
export const handler = <P = Record<string, any>>(run: Handler<P>): Handler<P> => run;

/**
 * The handler of a `cost: cpu` endpoint: it runs in a worker thread of the code pool
 * (handlers/cpu-pool.ts) under a wall-clock and memory limit, so it sees only its
 * params and options — no call, no setup — and returns data or a FileOutput.
 */
export type PureHandler<P = Record<string, any>> = (input: PureInput<P>) => unknown;

export const pureHandler = <P = Record<string, any>>(run: PureHandler<P>): PureHandler<P> => run;

/**
 * A pool-only task: a pure export no manifest names, which its module's handler runs in the
 * code pool by name (handlers/pool-tasks.ts). Written `poolTask<Input>()(run)`: the input is
 * stated and the answer's type kept (TypeScript cannot infer one type argument when the other is
 * given), so the pool's task table types a call site's input and output from the export itself.
 */
export const poolTask =
  <P>() =>
  <R>(run: (input: PureInput<P>) => R): ((input: PureInput<P>) => R) =>
    run;

/** An answer written as is: bytes, a stored file, a redirect (not wrapped in the envelope). */
export class Reply {
  constructor(readonly output: Output) {}
}
