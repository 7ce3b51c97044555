/**
 * One outbound call's time budget joined with the caller's AbortSignal. `signal`
 * aborts when either the caller aborts or `ms` elapse; afterwards `timedOut`
 * tells the two apart, so the client can answer 504 for its own deadline and
 * pass the caller's reason through untouched.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly endsAt: number;
  private timer?: NodeJS.Timeout;
  private expired = false;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);

  constructor(
    readonly ms: number,
    private readonly caller?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.endsAt = Date.now() + ms;
    if (caller?.aborted) {
      this.onCallerAbort();
      return;
    }
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new DOMException(`deadline of ${ms} ms elapsed`, 'TimeoutError'));
    }, ms);
  }

  /** True when the budget, not the caller, ended the call. */
  get timedOut(): boolean {
    return this.expired;
  }

  /** The caller's signal, when it is what aborted. */
  get callerAborted(): boolean {
    return !this.expired && this.caller?.aborted === true;
  }

  remaining(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  /** Stop the clock but keep following the caller (a stream outlives its time-to-response budget). */
  stopClock(): void {
    clearTimeout(this.timer);
  }

  /** Wait `ms`, or reject with the abort reason as soon as the signal aborts. */
  sleep(ms: number): Promise<void> {
    return this.race(new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Settle with `work`, or reject with the abort reason if the signal aborts first. */
  race<T>(work: Promise<T>): Promise<T> {
    const { signal } = this;
    if (signal.aborted) return Promise.reject(signal.reason);
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}
