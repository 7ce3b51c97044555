import type { PoolStats } from './workers/pool-stats.js';

/**
 * What one engine starts on first use and must stop when it closes: worker pools, the
 * media service (egress proxy, cache janitor), the Apertium server, OCR workers. Each
 * engine has its own scope, made by createEngine (app.ts) for its configuration, so
 * two engines in one process (tests, a CLI beside a server) share no pool or child, and
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

const scopes = new WeakMap<object, EngineScope>();
/** For code run outside any engine (a unit test calling an adapter with a bare setup). */
const detached = new EngineScope();

/**
 * The scope of the engine built on `config` (createEngine binds one per configuration
 * object; code deep in an adapter reaches it through the `config` of its setup). Without
 * a configuration, the detached scope; tests close it with closeDetachedScope().
 */
export function scopeOf(config: object | undefined): EngineScope {
  if (!config) return detached;
  let scope = scopes.get(config);
  if (!scope) scopes.set(config, (scope = new EngineScope()));
  return scope;
}

/** Stop what was started outside any engine (tests' teardown). */
export function closeDetachedScope(): Promise<void> {
  return detached.close();
}

/** Stop what was started for `config` (tests that call adapters with a bare setup; an engine closes its own). */
export function closeScopeOf(config: object): Promise<void> {
  return scopeOf(config).close();
}
