import path from 'node:path';
import Koa from 'koa';
import type { Config } from './config.js';
import { loadRegistryCompiled } from './manifest/compiled.js';
import { ROOT } from './root.js';
import type { Endpoint } from './manifest/types.js';
import { loadUpstreamSpecs, UpstreamRegistry, type UpstreamSpec } from './upstreams.js';
import { buildRegistry, type Registry } from './registry.js';
import { createHttpClient } from './http/client.js';
import { createResultCache } from './cache.js';
import type { FileStore } from './storage/files.js';
import { createFileStore } from './storage/create-file-store.js';
import { closeDatabase, database } from './db/database.js';
import { UsageCounter } from './db/usage.js';
import { KeyStore } from './auth/key-store.js';
import { createRateLimiter } from './limits/create-rate-limiter.js';
import { shutdownAll } from './shutdown.js';
import { closeChromium } from './tools/browser/chromium.js';
import { createLogger, type Logger } from './log.js';
import { requestContext } from './pipeline/request-context.js';
import { dispatch } from './pipeline/dispatch.js';
import { BodyParsers } from './pipeline/body.js';
import type { Builtin } from './pipeline/builtin.js';
import { systemBuiltins } from './admin/system-routes.js';
import { keyBuiltins } from './admin/keys-routes.js';
import { fileBuiltins } from './storage/file-route.js';
import { discoveryBuiltins } from './discovery/routes.js';
import { galleryBuiltins } from './effects/gallery.js';

export { ROOT };
export const ENDPOINTS_DIR = path.join(ROOT, 'endpoints');
/** The compiled registry of this checkout's endpoints (`npm run build`); other ENDPOINTS_DIRs compile into their DATA_DIR. */
export const COMPILED_REGISTRY = path.join(ROOT, 'build', 'registry.json');

export interface EngineOptions {
  config: Config;
  /** Already-loaded endpoints (tests reuse one load); default: load ENDPOINTS_DIR. */
  endpoints?: Endpoint[];
  upstreamSpecs?: UpstreamSpec[];
  logger?: Logger;
  /** Build every handler and param validator now instead of on first call (lint). */
  eager?: boolean;
}

export interface Engine {
  app: Koa;
  registry: Registry;
  config: Config;
  files: FileStore;
  keys: KeyStore;
  /** The built-in routes (health, admin, files, discovery, gallery, checkapikey). */
  builtins: readonly Builtin[];
  close(): Promise<void>;
}

/** Build the whole service from the manifests and the configuration. */
export function createEngine(options: EngineOptions): Engine {
  const { config } = options;
  const logger = options.logger ?? createLogger();
  const endpointsDir = config.endpointsDir ?? ENDPOINTS_DIR;
  const compiled = options.endpoints
    ? undefined
    : loadRegistryCompiled(endpointsDir, endpointsDir === ENDPOINTS_DIR ? COMPILED_REGISTRY : path.join(config.dataDir, 'cache', 'registry.json'));
  const endpoints = options.endpoints ?? compiled!.endpoints;
  const http = createHttpClient(config);
  const upstreams = new UpstreamRegistry(options.upstreamSpecs ?? compiled?.upstreams ?? loadUpstreamSpecs(path.join(endpointsDir, 'upstreams')), config.env, http);
  const cache = createResultCache(config, logger);
  const files = createFileStore(config, logger);
  const registry = buildRegistry(endpoints, (endpoint) => ({ config, endpoint, manifestDir: endpoint.dir, http, upstreams, cache, files }), { eager: options.eager, checked: compiled !== undefined && !options.eager });
  const store = new KeyStore(() => database(config));
  const limiter = createRateLimiter(config, logger);
  const auth = { store, config };

  const usage = new UsageCounter(config);

  // the built-in routes, one table: dispatched, listed and documented like the manifests
  const builtins: Builtin[] = [];
  const table = () => builtins;
  builtins.push(
    ...systemBuiltins({ config, registry, store, usage, files, builtins: table }),
    ...keyBuiltins({ store }),
    ...fileBuiltins(files),
    ...discoveryBuiltins({ registry, config, builtins: table }),
    ...galleryBuiltins({ config, registry }),
  );

  const app = new Koa({ proxy: config.env.TRUST_PROXY === '1' });
  app.silent = true;
  app.use(requestContext(config, logger));
  app.use(dispatch({ config, registry, auth, limiter, usage, cache, builtins, bodies: new BodyParsers(config, files.tempDir) }));

  return {
    app,
    registry,
    config,
    files,
    keys: store,
    builtins,
    async close() {
      await Promise.allSettled([usage.close(), limiter.close(), cache.close(), files.close(), shutdownAll(), closeChromium()]);
      await closeDatabase(config);
    },
  };
}
