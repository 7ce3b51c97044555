import path from 'node:path';
import Koa from 'koa';
import type { Config } from '../platform/config.js';
import { loadCompiledCatalog } from '../pipeline/compiled-catalog.js';
import { ROOT } from '../core/root.js';
import type { Endpoint } from '../core/manifest-types.js';
import { loadUpstreamSpecs, UpstreamRegistry, type UpstreamSpec } from '../catalog/upstreams.js';
import { buildEndpointRegistry, type EndpointRegistry } from '../pipeline/endpoint-registry.js';
import { createHttpClient } from '../platform/http/client.js';
import type { SsrfGuard } from '../platform/http/ssrf-guard.js';
import { createResultCache } from '../platform/cache.js';
import type { FileStore } from '../platform/storage/files.js';
import { createFileStore } from '../platform/storage/create-file-store.js';
import { EngineDatabase } from '../platform/db/engine-database.js';
import { UsageCounter } from '../platform/db/usage.js';
import { DailyQuota } from '../platform/limits/daily-quota.js';
import { authDeps } from '../platform/auth/authenticate.js';
import { KeyStore } from '../platform/auth/key-store.js';
import { createRevocations } from '../platform/auth/revocations.js';
import { keyCacheTtlMs } from '../platform/auth/settings.js';
import { createRateLimiter } from '../platform/limits/create-rate-limiter.js';
import { createLogger, type Logger } from '../platform/log.js';
import { requestContext } from '../pipeline/request-context.js';
import { dispatch } from '../pipeline/dispatch.js';
import { SuccessEnvelope } from '../pipeline/envelope.js';
import { asHost } from '../pipeline/as-host.js';
import { BodyParsers } from '../pipeline/body.js';
import type { Builtin } from '../pipeline/builtin.js';
import { engineFeatures } from './features.js';
import type { FeatureContext } from '../pipeline/feature.js';
import { EngineMetrics } from '../platform/metrics/metrics.js';
import type { CircuitReading } from '../platform/metrics/dependencies.js';
import { Jobs } from '../pipeline/jobs/service.js';
import { WORKER_ROUTES } from '../pipeline/jobs/settings.js';
import { EngineScope } from '../platform/scope.js';
import { startTracing } from '../platform/tracing/tracing.js';

export { ROOT };
export const ENDPOINTS_DIR = path.join(ROOT, 'endpoints');
/** The compiled registry of this checkout's endpoints (`npm run build`); other ENDPOINTS_DIRs compile into their DATA_DIR. */
export const COMPILED_CATALOG = path.join(ROOT, 'build', 'registry.json');

export interface EngineOptions {
  config: Config;
  /** Already-loaded endpoints (tests reuse one load); default: load ENDPOINTS_DIR. */
  endpoints?: Endpoint[];
  upstreamSpecs?: UpstreamSpec[];
  logger?: Logger;
  /** Build every handler and param validator now instead of on first call (lint). */
  eager?: boolean;
  /** The SSRF guard of every user-URL fetch; default: the system resolver and ALLOW_PRIVATE_URLS (tests swap in a stand-in internet). */
  guard?: SsrfGuard;
}

export interface Engine {
  app: Koa;
  registry: EndpointRegistry;
  config: Config;
  files: FileStore;
  keys: KeyStore;
  /** This engine's database, handed to every store that keeps state; closed by close(). */
  database: EngineDatabase;
  /** What this engine started on first use (worker pools, children, listeners), closed by close(). */
  scope: EngineScope;
  /** The built-in routes, from the features (features.ts). */
  builtins: readonly Builtin[];
  /** Start what the features run beside the HTTP server (features.ts). */
  start(): Promise<void>;
  /** Stop everything: stores, the features' listeners, child processes and worker pools. */
  close(): Promise<void>;
}

/** Build the whole service from the manifests and the configuration. */
export function createEngine(options: EngineOptions): Engine {
  const { config } = options;
  const logger = options.logger ?? createLogger();
  const endpointsDir = config.endpointsDir ?? ENDPOINTS_DIR;
  const compiled = options.endpoints
    ? undefined
    : loadCompiledCatalog(endpointsDir, endpointsDir === ENDPOINTS_DIR ? COMPILED_CATALOG : path.join(config.dataDir, 'cache', 'registry.json'));
  const endpoints = options.endpoints ?? compiled!.endpoints;
  // what this engine starts on first use (pools, children, listeners): closed with it
  const scope = new EngineScope();
  // this engine's database (and its circuit), opened on first use; a bad DATABASE_TIMEOUT_MS stops the boot here
  const database = new EngineDatabase(config);
  const metrics = new EngineMetrics(scope);
  const files = createFileStore(config, logger);
  metrics.storage(
    () => files.janitor.report(),
    () => files.janitor.evicted,
  );
  const http = createHttpClient(config, { guard: options.guard, ownFiles: files, observe: (upstream, outcome) => metrics.upstream(upstream, outcome) });
  const upstreams = new UpstreamRegistry(
    options.upstreamSpecs ?? compiled?.upstreams ?? loadUpstreamSpecs(path.join(endpointsDir, 'upstreams')),
    config.env,
    http,
  );
  const cache = createResultCache(config, logger, (outcome) => metrics.cacheLookup(outcome));
  const registry = buildEndpointRegistry(
    endpoints,
    (endpoint) => ({ config, endpoint, manifestDir: endpoint.dir, http, upstreams, cache, files, scope, database }),
    {
      eager: options.eager,
      checked: compiled !== undefined && !options.eager,
    },
  );
  const features = engineFeatures();
  for (const feature of features) feature.check?.(config, scope); // so do the settings of features that start later
  const revocations = createRevocations(config, logger);
  const store = new KeyStore(database, { cacheTtlMs: keyCacheTtlMs(config.env), revocations });
  const limiter = createRateLimiter(config, logger);
  const auth = authDeps(store, config);

  const usage = new UsageCounter(database);
  const jobs = new Jobs({ config, database, registry, files, http, logger, usage, metrics });
  const quota = new DailyQuota(database);

  // the features' built-in routes, one table: dispatched, listed and documented like the manifests
  const builtins: Builtin[] = [];
  // the circuits in front of dependencies, for /metrics
  const circuits = (): CircuitReading[] => [
    ['database', database.circuit],
    ['rate-limit store', limiter.circuit],
    ['result cache', cache.circuit],
  ];
  const context: FeatureContext = { config, scope, database, registry, store, usage, quota, files, logger, metrics, jobs, builtins: () => builtins, circuits };
  for (const feature of features) builtins.push(...(feature.routes?.(context) ?? []));

  // the client's address is decided by TRUST_PROXY in requestContext (http/client-ip.ts), not by Koa's all-or-nothing `proxy`
  const app = new Koa();
  app.silent = true;
  // OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set; nothing of it is loaded otherwise
  const tracing = startTracing(config, logger);
  app.use(requestContext(config, logger, metrics, tracing, usage));
  // /as/<host>/…: the genre's host base URLs, rewritten before dispatch
  app.use(asHost());
  // a worker serves nothing public: its health and metrics only
  const worker = jobs.settings.role === 'worker';
  const served = worker ? builtins.filter((b) => WORKER_ROUTES.includes(`${b.method} ${b.path}`)) : builtins;
  app.use(
    dispatch({
      config,
      envelope: new SuccessEnvelope(config),
      registry,
      auth,
      limiter,
      usage,
      quota,
      cache,
      jobs,
      builtins: served,
      endpoints: !worker,
      bodies: new BodyParsers(config, files.tempDir),
    }),
  );

  return {
    app,
    registry,
    config,
    files,
    keys: store,
    database,
    scope,
    builtins,
    async start() {
      await Promise.all(features.map((f) => f.start?.(context)));
    },
    async close() {
      await Promise.allSettled([
        usage.close(),
        jobs.close(),
        limiter.close(),
        revocations?.close(),
        cache.close(),
        files.close(),
        scope.close(),
        ...features.map((f) => f.close?.()),
        tracing?.then((t) => t?.close()),
      ]);
      // last: the stores above write their last counts and states to it as they close
      await database.close();
    },
  };
}
