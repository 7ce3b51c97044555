import { overloaded } from '../../core/errors.js';
import type { PoolStats } from '../../platform/workers/pool-stats.js';

/**
 * The media-wide concurrency cap: at most `limit` jobs hold a slot (a slot lasts
 * until the job's processes end, streams included), at most `queue` wait, and the
 * rest get 503 overloaded. A waiter whose client leaves drops out of the queue.
 */
export class JobSlots {
  private running = 0;
  private readonly waiting: { grant: () => void }[] = [];

  constructor(
    readonly limit: number,
    readonly queue: number,
  ) {}

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Slots held and waited for, for /metrics (the media pool). */
  get stats(): PoolStats {
    return { active: this.running, queued: this.waiting.length, workers: this.limit, queueLimit: this.queue };
  }

  /** Wait for a slot; resolves with its release function (call it exactly once). */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.queue) return Promise.reject(overloaded('All media workers are busy'));
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next)
        next.grant(); // the slot passes straight to the next waiter
      else this.running--;
    };
  }
}
