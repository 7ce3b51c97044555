import v8 from 'node:v8';

/**
 * V8 tuning for the server process (main.ts calls this before it builds the engine;
 * the engine benchmark's server does the same). Allocation-site pretenuring: once a moment of high survival (a burst of
 * requests waiting on a slow first call, a lazy import, an upstream) has V8 allocate a
 * per-request object literal of Koa or node:http straight into old space, the whole
 * request graph it points to outlives every scavenge until the next mark-compact, and
 * the decision sticks for the life of the process. Measured on /api/fun/quote
 * (bench/engine/RESULTS.md): roughly one run in two fell into that state, promoting
 * ~6 KB per request and costing 60–70% more CPU per request; with pretenuring off, no run did.
 */
export function tuneV8(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
