/**
 * Endpoint timeouts without a timer per request. All calls with the same timeout
 * expire in the order they started, so one FIFO per timeout (a doubly linked list)
 * and ONE timer, armed for the oldest call's deadline, cover any number of calls in
 * flight: starting and finishing a call is O(1) and allocates nothing but its entry.
 * When the timer fires it expires every call whose deadline has passed and re-arms
 * for the next one; calls that finished early were unlinked and cost nothing more.
 * The timer holds the process open only while calls are in flight.
 */

/** What the queue tracks: a call with a deadline, expired at most once. */
export abstract class Deadlined {
  /** performance.now() value after which the call has timed out. */
  deadline = 0;
  prev: Deadlined | undefined = undefined;
  next: Deadlined | undefined = undefined;
  queue: DeadlineQueue | undefined = undefined;
  /** The deadline passed while the call was still running. */
  abstract expire(timeoutMs: number): void;
}

export class DeadlineQueue {
  #head: Deadlined | undefined;
  #tail: Deadlined | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #fire = () => this.#expireDue();

  constructor(readonly timeoutMs: number) {}

  add(entry: Deadlined): void {
    entry.deadline = performance.now() + this.timeoutMs;
    entry.queue = this;
    entry.prev = this.#tail;
    if (this.#tail) this.#tail.next = entry;
    else this.#head = entry;
    this.#tail = entry;
    if (!this.#timer) this.#arm(this.timeoutMs);
    else if (!entry.prev) this.#timer.ref();
  }

  /** Stop tracking a call (finished, or expired); a no-op for one not in this queue. */
  remove(entry: Deadlined): void {
    if (entry.queue !== this) return;
    if (entry.prev) entry.prev.next = entry.next;
    else this.#head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.#tail = entry.prev;
    entry.prev = entry.next = entry.queue = undefined;
    // The timer stays armed for the next call (re-arming per request would cost a timer
    // each again), but an idle queue must not keep the process alive.
    if (!this.#head) this.#timer?.unref();
  }

  /** Calls being tracked (for tests). */
  get size(): number {
    let n = 0;
    for (let e = this.#head; e; e = e.next) n++;
    return n;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(this.#fire, Math.max(1, Math.ceil(ms)));
  }

  #expireDue(): void {
    this.#timer = undefined;
    const now = performance.now();
    while (this.#head && this.#head.deadline <= now) {
      const due = this.#head;
      this.remove(due);
      due.expire(this.timeoutMs);
    }
    if (this.#head) this.#arm(this.#head.deadline - now);
  }
}

/** One queue per distinct timeout, shared by every endpoint that has it. */
export class Deadlines {
  readonly #queues = new Map<number, DeadlineQueue>();

  for(timeoutMs: number): DeadlineQueue {
    let queue = this.#queues.get(timeoutMs);
    if (!queue) this.#queues.set(timeoutMs, (queue = new DeadlineQueue(timeoutMs)));
    return queue;
  }
}
