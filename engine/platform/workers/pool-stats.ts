/**
 * Queue and activity of a running worker pool, for /metrics. Pools report these through
 * their engine's scope (engine/platform/scope.ts) once started, so reading the figures never
 * loads or starts a pool (importing the render pool would load Skia and sharp).
 */
export interface PoolStats {
  /** Tasks a worker is running. */
  active: number;
  /** Tasks waiting for a worker. */
  queued: number;
  /** Tasks run at once at most (threads, media slots): `active` over this is how busy the pool is. */
  workers: number;
  /** Tasks allowed to wait; past it callers get 503 overloaded. */
  queueLimit: number;
}
