import type Router from '@koa/router';
import type { Config } from '../config.js';
import type { Registry } from '../registry.js';
import { notFound } from '../errors.js';
import { buildOpenApi } from './openapi.js';
import { makeAsset, sendAsset, type Asset } from './asset.js';
import { docsAsset, docsPage, docsPolicy } from './docs.js';

/**
 * GET /openapi.json and GET /docs (+ its assets), without a key. The document is
 * built on first request and kept: the registry does not change while the process runs.
 */
export function registerDiscoveryRoutes(router: Router, deps: { registry: Registry; config: Config }): void {
  let openapi: Asset | undefined;
  router.get('/openapi.json', (ctx) => {
    openapi ??= makeAsset('application/json; charset=utf-8', Buffer.from(JSON.stringify(buildOpenApi(deps.registry, deps.config))));
    sendAsset(ctx, openapi, 'public, max-age=300');
  });

  const policy = docsPolicy(deps.config.publicBaseUrl);
  router.get(['/docs', '/docs/'], (ctx) => {
    ctx.set('Content-Security-Policy', policy);
    sendAsset(ctx, docsPage(), 'no-cache');
  });
  router.get('/docs/:file', (ctx) => {
    const asset = docsAsset(String(ctx.params.file));
    if (!asset) throw notFound('No such docs file');
    // the page asks for every asset with ?v=<swagger-ui version>, so a cached copy never goes stale
    sendAsset(ctx, asset, 'public, max-age=31536000, immutable');
  });
}
