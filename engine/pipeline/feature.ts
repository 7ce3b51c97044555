import type { Config } from '../platform/config.js';
import type { EngineScope } from '../platform/scope.js';
import type { EngineDatabase } from '../platform/db/engine-database.js';
import type { EndpointRegistry } from './endpoint-registry.js';
import type { KeyStore } from '../platform/auth/key-store.js';
import type { UsageCounter } from '../platform/db/usage.js';
import type { DailyQuota } from '../platform/limits/daily-quota.js';
import type { FileStore } from '../platform/storage/files.js';
import type { Logger } from '../platform/log.js';
import type { Builtin } from './builtin.js';
import type { EngineMetrics } from '../platform/metrics/metrics.js';
import type { Jobs } from './jobs/service.js';
import type { CircuitReading } from '../platform/metrics/dependencies.js';

/**
 * What an engine is made of besides its manifests, each with its lifecycle: the built-in
 * routes it adds, what it starts once the server listens (`start`), and what it stops
 * at shutdown (`close`: listeners, child processes, worker pools). app.ts and main.ts
 * name no feature: they build, start and close this list.
 */
export interface Feature {
  name: string;
  /** Throws on a bad setting of the feature: called as the engine is built, so a typo stops the boot though the feature starts later. */
  check?(config: Config, scope: EngineScope): void;
  routes?(context: FeatureContext): Builtin[];
  start?(context: FeatureContext): Promise<void>;
  close?(): Promise<void>;
}

export interface FeatureContext {
  config: Config;
  /** What the engine starts on first use and stops when it closes (pools, services). */
  scope: EngineScope;
  /** This engine's database, which every store below keeps its state in; the engine closes it last. */
  database: EngineDatabase;
  registry: EndpointRegistry;
  store: KeyStore;
  usage: UsageCounter;
  quota: DailyQuota;
  files: FileStore;
  logger: Logger;
  metrics: EngineMetrics;
  jobs: Jobs;
  /** The whole built-in table (the listing and the OpenAPI document describe it). */
  builtins: () => readonly Builtin[];
  /** The circuit breakers in front of dependencies and their state now (metrics). */
  circuits: () => CircuitReading[];
}
