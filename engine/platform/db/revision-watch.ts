/**
 * Reads a revision counter for callers that must see every change committed before
 * they asked, while sharing reads among concurrent callers: a caller joins a read
 * that started after it arrived, or waits for the next one. So at most two reads are
 * in flight however many requests come at once, and a caller's answer is never older
 * than its own arrival.
 */
export class RevisionWatch {
  #running?: Promise<number>;
  #next?: Promise<number>;

  constructor(private readonly read: () => Promise<number>) {}

  /** A revision read that started no earlier than this call. */
  current(): Promise<number> {
    if (!this.#running) return this.#start();
    // the running read may have started before a commit this caller already sees: wait for the next one
    this.#next ??= this.#running.then(
      () => this.#afterRunning(),
      () => this.#afterRunning(),
    );
    return this.#next;
  }

  #afterRunning(): Promise<number> {
    this.#next = undefined;
    // a read started meanwhile (by a later caller) also started after every waiter arrived
    return this.#running ?? this.#start();
  }

  #start(): Promise<number> {
    const running = this.read().finally(() => {
      if (this.#running === running) this.#running = undefined;
    });
    this.#running = running;
    return running;
  }
}
