import type { PoolStats } from './workers/pool-stats.js';

/**
 * What one engine starts on first use and must stop when it closes: worker pools, the
 * media service (egress proxy, cache janitor), the Apertium server, OCR workers. Each
 * engine makes its own scope (createEngine, app.ts) and hands it in (AdapterSetup.scope,
 * FeatureContext.scope), so two engines in one process (tests, a CLI beside a server)
 * share no pool or child — even when built on one configuration object — and
 * closing one stops everything it started and nothing of the other. Resources are
 * registered when they start, so close() never loads what was never used (importing
 * the render pool to close it would load Skia and sharp).
 */
export class EngineScope {
  readonly #held = new Map<string, Held>();

  /**
   * The scope's one `name` resource, made by `create` on first use. `close` stops it with
   * the scope; `stats` reports its queue in /metrics while it runs.
   */
  own<T>(name: string, create: () => T, hooks: { close?(value: T): Promise<void> | void; stats?(value: T): PoolStats } = {}): T {
    const held = this.#held.get(name);
    if (held) return held.value as T;
    const value = create();
    this.#held.set(name, {
      value,
      close: hooks.close ? async () => void (await hooks.close!(value)) : undefined,
      stats: hooks.stats ? () => hooks.stats!(value) : undefined,
    });
    return value;
  }

  /** Whether `name` was started (and not released since). */
  has(name: string): boolean {
    return this.#held.has(name);
  }

  /** Stop one resource now; the next own() of that name makes a new one. */
  async release(name: string): Promise<void> {
    const held = this.#held.get(name);
    this.#held.delete(name);
    await held?.close?.();
  }

  /** Queue and activity of the running pools, by name (for /metrics). */
  poolStats(): [string, PoolStats][] {
    return [...this.#held].flatMap(([name, held]) => (held.stats ? [[name, held.stats()] as [string, PoolStats]] : []));
  }

  /** Stop everything started in this scope (a failing close does not keep the others open). */
  async close(): Promise<void> {
    const all = [...this.#held.values()];
    this.#held.clear();
    await Promise.allSettled(all.map((held) => held.close?.()));
  }
}

interface Held {
  value: unknown;
  close?: () => Promise<void>;
  stats?: () => PoolStats;
}
