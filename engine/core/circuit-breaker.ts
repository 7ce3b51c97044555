/**
 * A circuit breaker for one dependency (a Redis connection, a PostgreSQL server): after `threshold`
 * consecutive failures (or one that `opensAtOnce` names: a timeout) it opens, and while open every call fails at once instead
 * of waiting for a timeout; after `cooldownMs` one probe is made (half-open): success
 * closes the circuit, failure opens it for another cooldown. With a `probe` function the
 * probe runs in the background and every caller keeps failing at once meanwhile, so no
 * request waits for a probe to a frozen server; without one, the first call after the
 * cooldown is the probe.
 * So an outage costs a few timed-out calls, then nothing, and recovery needs no
 * operator: the first probe after the dependency answers again closes it.
 *
 * Hand-written rather than opossum (the usual Node breaker): its current major needs
 * Node 22 while Manifold runs on 20, and its rolling percentage window needs a volume
 * of calls before it trips, where a few consecutive failures are the signal here.
 */

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  threshold?: number;
  /** How long the circuit stays open before one probe is let through. */
  cooldownMs?: number;
  /** Which errors mean the dependency is unhealthy (others, e.g. a script error Redis answered, do not count). */
  isFailure?: (error: unknown) => boolean;
  /**
   * Which failures open the circuit at once, before `threshold` is reached (default: none).
   * The threshold is there so one failure that costs nothing to repeat (a dropped
   * connection, refused at once) does not shut callers out for a cooldown while the
   * dependency is fine; a failure that cost its caller a long wait (a timeout) is
   * different: each call let through while counting up to the threshold would wait as
   * long again, so one is enough.
   */
  opensAtOnce?: (error: unknown) => boolean;
  /**
   * Which errors say nothing about the dependency either way: counted neither as a
   * failure nor as a success (a Redis command that timed out while this process's own
   * event loop was late by as long: redis.ts). A probe ending so is made again after
   * another cooldown.
   */
  isInconclusive?: (error: unknown) => boolean;
  /** The probe made in the background once the cooldown has passed (a `PING`, a `select 1`); see setProbe. */
  probe?: () => Promise<unknown>;
  /** Told of every state change (logging). */
  onChange?: (to: CircuitState, from: CircuitState) => void;
  now?: () => number;
}

/** Rejection of a call made while the circuit is open: nothing was sent. */
export class CircuitOpenError extends Error {
  override readonly name = 'CircuitOpenError';
  constructor(readonly retryInMs: number) {
    super('circuit open: the dependency failed recently and is not being called');
  }
}

export class CircuitBreaker {
  #state: CircuitState = 'closed';
  #failures = 0;
  #openedAt = 0;
  readonly #threshold: number;
  readonly #cooldownMs: number;
  readonly #isFailure: (error: unknown) => boolean;
  readonly #opensAtOnce: (error: unknown) => boolean;
  readonly #isInconclusive: (error: unknown) => boolean;
  #probe?: () => Promise<unknown>;
  readonly #onChange?: (to: CircuitState, from: CircuitState) => void;
  readonly #now: () => number;

  constructor(options: CircuitBreakerOptions = {}) {
    this.#threshold = options.threshold ?? 3;
    this.#cooldownMs = options.cooldownMs ?? 1000;
    this.#isFailure = options.isFailure ?? (() => true);
    this.#opensAtOnce = options.opensAtOnce ?? (() => false);
    this.#isInconclusive = options.isInconclusive ?? (() => false);
    this.#probe = options.probe;
    this.#onChange = options.onChange;
    this.#now = options.now ?? Date.now;
  }

  get state(): CircuitState {
    return this.#state;
  }

  /**
   * Make the probes in the background with `probe` from now on (a driver made after its
   * breaker: database.ts keeps one breaker per server across reopened pools).
   */
  setProbe(probe: () => Promise<unknown>): void {
    this.#probe = probe;
  }

  /** Stop using `probe` (its pool was closed): the next call after a cool-down is the probe again, until another is set. */
  clearProbe(probe: () => Promise<unknown>): void {
    if (this.#probe === probe) this.#probe = undefined;
  }

  /** Run `call` unless the circuit is open (then reject with CircuitOpenError without calling). */
  async run<T>(call: () => Promise<T>): Promise<T> {
    let probe = false;
    if (this.#state === 'open') {
      const waited = this.#now() - this.#openedAt;
      if (waited < this.#cooldownMs) throw new CircuitOpenError(this.#cooldownMs - waited);
      this.#set('half-open');
      if (this.#probe) {
        this.#probeInBackground(this.#probe);
        throw new CircuitOpenError(0);
      }
      probe = true;
    } else if (this.#state === 'half-open') {
      throw new CircuitOpenError(0); // one probe at a time
    }
    let result: T;
    try {
      result = await call();
    } catch (error) {
      this.#settled(error, probe);
      throw error;
    }
    this.#succeeded();
    return result;
  }

  #probeInBackground(probe: () => Promise<unknown>): void {
    // a probe that throws synchronously is a failed probe too
    void Promise.resolve()
      .then(probe)
      .then(
        () => this.#succeeded(),
        (error: unknown) => this.#settled(error, true),
      );
  }

  /** A call (or probe) that ended in `error`. */
  #settled(error: unknown, probe: boolean): void {
    if (this.#isInconclusive(error)) {
      if (probe) this.#reopen();
    } else if (this.#isFailure(error)) this.#failed(error, probe);
    else if (probe) this.#succeeded(); // the dependency answered, with an error of its own
  }

  /**
   * A failure seen outside run(): a call on something run() handed out earlier (a
   * query on a pooled database connection) failed. Counts like a failed call; while
   * open or probing it changes nothing, as a late failure of a call started before.
   */
  failure(error: unknown): void {
    if (this.#isFailure(error) && !this.#isInconclusive(error)) this.#failed(error, false);
  }

  #failed(error: unknown, probe: boolean): void {
    this.#failures++;
    // a late failure of a call started before the circuit opened must not restart the cooldown
    if (probe || (this.#state === 'closed' && (this.#failures >= this.#threshold || this.#opensAtOnce(error)))) this.#reopen();
  }

  #reopen(): void {
    this.#openedAt = this.#now();
    this.#set('open');
  }

  #succeeded(): void {
    this.#failures = 0;
    if (this.#state !== 'closed') this.#set('closed');
  }

  #set(to: CircuitState): void {
    const from = this.#state;
    this.#state = to;
    this.#onChange?.(to, from);
  }
}
