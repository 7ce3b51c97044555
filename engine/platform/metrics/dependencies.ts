import { Gauge, type Registry } from 'prom-client';
import type { CircuitState } from '../../core/circuit-breaker.js';
import type { Readiness } from '../health/readiness.js';

/** A circuit breaker's name (`database`, `result cache`) and its state now; undefined: not opened yet. */
export type CircuitReading = [name: string, state: CircuitState | undefined];

const CIRCUIT_STATES: readonly CircuitState[] = ['closed', 'open', 'half-open'];

/**
 * The state of each dependency, as GET /health/ready finds it (checked at each scrape,
 * bounded by HEALTH_CHECK_TIMEOUT_MS, sharing a round already running), and of each
 * circuit breaker in front of one (engine/core/circuit-breaker.ts): 1 on the current state.
 */
export function dependencyMetrics(registry: Registry, readiness: Readiness, circuits: () => CircuitReading[]): void {
  new Gauge({
    name: 'manifold_dependency_check_seconds',
    help: 'How long the readiness check of each dependency took',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      // the same round as manifold_dependency_up's (scraped together: one check each)
      for (const [dependency, result] of Object.entries((await readiness.check()).checks)) this.set({ dependency }, result.ms / 1000);
    },
  });
  new Gauge({
    name: 'manifold_dependency_up',
    help: 'Whether each configured dependency (database, redis, s3, queue) answered its readiness check: 1 up, 0 down',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      const { checks } = await readiness.check();
      for (const [dependency, result] of Object.entries(checks)) {
        this.set({ dependency }, result.ok ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'manifold_circuit_state',
    help: 'Circuit breakers in front of dependencies: 1 on the current state (closed: calls go through; open: failing fast; half-open: one probe)',
    labelNames: ['circuit', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [circuit, current] of circuits()) {
        if (current === undefined) continue;
        for (const state of CIRCUIT_STATES) this.set({ circuit, state }, state === current ? 1 : 0);
      }
    },
  });
}
