import type Router from '@koa/router';
import type { Config } from '../config.js';
import type { Registry } from '../registry.js';
import { notFound } from '../errors.js';
import { buildOpenApi, CATEGORY_NAMES } from './openapi.js';
import { CATEGORIES, type Category } from '../manifest/types.js';
import { makeAsset, sendAsset, type Asset } from './asset.js';
import { docsAsset, docsPage, docsPolicy } from './docs.js';

/**
 * GET /openapi.json (everything), GET /openapi/<category>.json and GET /docs (+ its
 * assets), without a key. Documents are built on first request and kept: the registry
 * does not change while the process runs.
 */
export function registerDiscoveryRoutes(router: Router, deps: { registry: Registry; config: Config }): void {
  const documents = new Map<string, Asset>();
  const document = (category?: Category) => {
    const key = category ?? '';
    let asset = documents.get(key);
    if (!asset) documents.set(key, (asset = makeAsset('application/json; charset=utf-8', Buffer.from(JSON.stringify(buildOpenApi(deps.registry, deps.config, category))))));
    return asset;
  };
  router.get('/openapi.json', (ctx) => sendAsset(ctx, document(), 'public, max-age=300'));
  router.get('/openapi/:file', (ctx) => {
    const category = String(ctx.params.file).replace(/\.json$/, '');
    if (!(CATEGORIES as readonly string[]).includes(category)) throw notFound(`No such category (one of ${CATEGORIES.join(', ')})`);
    sendAsset(ctx, document(category as Category), 'public, max-age=300');
  });

  // Swagger UI's configUrl: one document per category in its selector, the whole catalog last
  let swaggerConfig: Asset | undefined;
  router.get('/docs/swagger-config.json', (ctx) => {
    swaggerConfig ??= makeAsset('application/json; charset=utf-8', Buffer.from(JSON.stringify(docsConfig(deps.registry))));
    sendAsset(ctx, swaggerConfig, 'no-cache');
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

function docsConfig(registry: Registry) {
  const counts = new Map<string, number>();
  for (const { endpoint } of registry.routes) counts.set(endpoint.category, (counts.get(endpoint.category) ?? 0) + 1);
  const urls = CATEGORIES.filter((c) => counts.has(c)).map((c) => ({ url: `/openapi/${c}.json`, name: `${CATEGORY_NAMES[c]} (${counts.get(c)})` }));
  urls.push({ url: '/openapi.json', name: `Everything (${registry.routes.length}, slow to render)` });
  return { urls, 'urls.primaryName': urls[0].name };
}
