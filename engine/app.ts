import path from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Config } from './config.js';
import { loadRegistryCompiled } from './manifest/compiled.js';
import { ROOT } from './root.js';
import type { Endpoint } from './manifest/types.js';
import { loadUpstreamSpecs, UpstreamRegistry, type UpstreamSpec } from './upstreams.js';
import { buildRegistry, type Registry } from './registry.js';
import { createHttpClient } from './http/client.js';
import { createResultCache } from './cache.js';
import type { FileStore } from './storage/files.js';
import { createFileStore, diskUsage } from './storage/create-file-store.js';
import { registerFileRoute } from './storage/file-route.js';
import { closeDatabase, database } from './db/database.js';
import { KeyStore } from './auth/key-store.js';
import { authenticate } from './auth/authenticate.js';
import { createRateLimiter } from './limits/create-rate-limiter.js';
import { enforceRateLimit } from './limits/enforce-rate-limit.js';
import { registerKeyRoutes } from './admin/keys-routes.js';
import { listing } from './discovery/listing.js';
import { registerDiscoveryRoutes } from './discovery/routes.js';
import { registerGalleryRoutes } from './effects/gallery.js';
import { shutdownAll } from './shutdown.js';
import { closeChromium } from './tools/browser/chromium.js';
import { createLogger, type Logger } from './log.js';
import { success } from './envelope.js';
import { requestContext } from './pipeline/request-context.js';
import { endpointDispatch } from './pipeline/endpoint.js';
import { loadKoaBody } from './pipeline/body.js';

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

  const app = new Koa({ proxy: config.env.TRUST_PROXY === '1' });
  app.silent = true;
  const router = new Router();
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok', version: config.version, endpoints: registry.routes.length, uptime: Math.round(process.uptime()), storage: diskUsage(files) };
  });
  router.get('/api/admin/endpoints', async (ctx) => {
    await enforceRateLimit(ctx, limiter, await authenticate(ctx, auth));
    ctx.state.result = listing(registry);
  });
  let keysBody: Middleware | undefined;
  router.use('/api/admin/keys', async (ctx, next) => {
    keysBody ??= (await loadKoaBody()).koaBody({ json: true, urlencoded: false, multipart: false, jsonLimit: 16 * 1024 }) as unknown as Middleware;
    return keysBody(ctx, next);
  });
  registerKeyRoutes(router, { store, config });
  registerFileRoute(router, files);
  registerDiscoveryRoutes(router, { registry, config });
  registerGalleryRoutes(router, { config, registry });

  app.use(requestContext(config, logger));
  app.use(endpointDispatch({ config, registry, auth, limiter, cache, tempDir: files.tempDir }));
  app.use(async (ctx, next) => {
    await next();
    if (ctx.state.result !== undefined) ctx.body = success(config, ctx.state.result);
  });
  app.use(router.routes());
  app.use(router.allowedMethods());

  return {
    app,
    registry,
    config,
    files,
    keys: store,
    async close() {
      await Promise.allSettled([limiter.close(), cache.close(), files.close(), shutdownAll(), closeChromium()]);
      await closeDatabase(config);
    },
  };
}
