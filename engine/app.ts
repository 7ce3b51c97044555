import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import type { Config } from './config.js';
import { loadEndpointsCompiled } from './manifest/compiled.js';
import type { Endpoint } from './manifest/types.js';
import { loadUpstreamSpecs, UpstreamRegistry, type UpstreamSpec } from './upstreams.js';
import { buildRegistry, type Registry } from './registry.js';
import { createHttpClient } from './http/client.js';
import { createResultCache } from './cache.js';
import type { FileStore } from './storage/files.js';
import { createFileStore } from './storage/create-file-store.js';
import { registerFileRoute } from './storage/file-route.js';
import { closeDatabase, openDatabase } from './storage/database.js';
import { KeyStore } from './auth/key-store.js';
import { authenticate } from './auth/authenticate.js';
import { createRateLimiter } from './limits/create-rate-limiter.js';
import { enforceRateLimit } from './limits/enforce-rate-limit.js';
import { registerKeyRoutes } from './admin/keys-routes.js';
import { listing } from './discovery/listing.js';
import { registerDiscoveryRoutes } from './discovery/routes.js';
import { registerGalleryRoutes } from './effects/gallery.js';
import { closeRenderPool } from './effects/shared.js';
import { closeUpscalePool } from './effects/upscale.js';
import { closeChromium } from './tools/browser/chromium.js';
import { createLogger, type Logger } from './log.js';
import { success } from './envelope.js';
import { requestContext } from './pipeline/request-context.js';
import { endpointDispatch } from './pipeline/endpoint.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ENDPOINTS_DIR = path.join(ROOT, 'endpoints');

export interface EngineOptions {
  config: Config;
  /** Already-loaded endpoints (tests reuse one load); default: load ENDPOINTS_DIR. */
  endpoints?: Endpoint[];
  upstreamSpecs?: UpstreamSpec[];
  logger?: Logger;
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
  const endpoints = options.endpoints ?? loadEndpointsCompiled(endpointsDir, path.join(config.dataDir, 'cache', 'registry.json'));
  const upstreams = new UpstreamRegistry(options.upstreamSpecs ?? loadUpstreamSpecs(path.join(endpointsDir, 'upstreams')), config.env);
  const http = createHttpClient(config);
  const cache = createResultCache(config);
  const files = createFileStore(config);
  const registry = buildRegistry(endpoints, (endpoint) => ({ config, endpoint, manifestDir: endpoint.dir, http, upstreams, cache, files }));
  const store = new KeyStore(openDatabase(config.dataDir));
  const limiter = createRateLimiter(config);
  const auth = { store, config };

  const app = new Koa({ proxy: config.env.TRUST_PROXY === '1' });
  app.silent = true;
  const router = new Router();
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok', version: config.version, endpoints: registry.routes.length, uptime: Math.round(process.uptime()) };
  });
  router.get('/api/admin/endpoints', async (ctx) => {
    await enforceRateLimit(ctx, limiter, authenticate(ctx, auth));
    ctx.state.result = listing(registry);
  });
  router.use('/api/admin/keys', koaBody({ json: true, urlencoded: false, multipart: false, jsonLimit: 16 * 1024 }) as unknown as Middleware);
  registerKeyRoutes(router, { store, config });
  registerFileRoute(router, files);
  registerDiscoveryRoutes(router, { registry, config });
  registerGalleryRoutes(router, { config });

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
      await Promise.allSettled([limiter.close(), cache.close(), files.close(), closeRenderPool(), closeUpscalePool(), closeChromium()]);
      closeDatabase(config.dataDir);
    },
  };
}
