import { overloaded } from '../core/errors.js';

/**
 * A per-endpoint semaphore with a bounded wait queue: at most `limit` calls run,
 * at most `queue` wait, and the rest get 503 overloaded instead of piling up.
 */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly queue: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.queue) throw overloaded('This endpoint is at capacity');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
