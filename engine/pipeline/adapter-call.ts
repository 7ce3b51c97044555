import type { Context } from 'koa';
import type { Call, Caller, Metered, Output, UploadedFile } from '../contract/call.js';
import { ApiError } from '../core/errors.js';
import { uploadedFiles } from './body.js';
import { addWork } from './usage-meter.js';
import { Deadlined, type DeadlineQueue } from './deadlines.js';

/**
 * The `Call` an adapter receives, and the bookkeeping that bounds it: the endpoint's
 * timeout (504) and the client leaving (499, which aborts the signal so upstream and
 * streaming work stops).
 *
 * Most adapters answer from memory and never look at the signal, so nothing costly is
 * made up front: the AbortController and the socket `close` listener come into being
 * on the first read of `signal`, and the timeout is an entry in a shared DeadlineQueue
 * rather than a timer per request. `files` and `client` are read from the request
 * only when asked for.
 */
export class AdapterCall extends Deadlined implements Call {
  #controller: AbortController | undefined;
  /** Why the call was given up (timeout, client gone), so a signal first read afterwards starts aborted. */
  #failed: ApiError | undefined;
  #files: Record<string, UploadedFile> | undefined;
  #reject: ((reason: unknown) => void) | undefined;

  constructor(
    readonly params: Record<string, any>,
    readonly caller: Caller,
    readonly baseUrl: string,
    readonly requestId: string,
    private readonly ctx: Context,
  ) {
    super();
  }

  get signal(): AbortSignal {
    return (this.#controller ??= this.#listen()).signal;
  }

  get files(): Record<string, UploadedFile> {
    return (this.#files ??= uploadedFiles(this.ctx));
  }

  /** Tokens and media seconds an adapter reports join the request's tally, read when the answer ends (usage-meter.ts). */
  readonly meter = (work: Metered): void => addWork(this.ctx, work);

  get client(): NonNullable<Call['client']> {
    return { ip: this.ctx.ip, headers: this.ctx.headers };
  }

  /**
   * Settle with the adapter's work, or reject with 504 once the queue's timeout
   * passes (the signal, if anyone took it, is aborted with the same error).
   */
  run(work: Promise<Output>, deadlines: DeadlineQueue): Promise<Output> {
    deadlines.add(this);
    return new Promise<Output>((resolve, reject) => {
      this.#reject = reject;
      work.then(
        (output) => {
          this.queue?.remove(this);
          resolve(output);
        },
        (err) => {
          this.queue?.remove(this);
          reject(err);
        },
      );
    });
  }

  expire(timeoutMs: number): void {
    this.#fail(new ApiError('upstream_timeout', `No answer within ${timeoutMs} ms`));
  }

  #fail(reason: ApiError): void {
    if (this.#failed) return;
    this.#failed = reason;
    this.queue?.remove(this);
    this.#controller?.abort(reason);
    this.#reject?.(reason);
  }

  /** The controller, aborted when the client closes the connection before the answer is written. */
  #listen(): AbortController {
    const controller = (this.#controller = new AbortController());
    if (this.#failed) {
      controller.abort(this.#failed);
      return controller;
    }
    const { res } = this.ctx;
    const closed = () => {
      if (!res.writableFinished) this.#fail(new ApiError('client_closed', 'The client closed the connection'));
    };
    if (res.destroyed) closed();
    else res.once('close', closed);
    return controller;
  }
}
