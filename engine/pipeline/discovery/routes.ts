import type { Config } from '../../platform/config.js';
import type { EndpointRegistry } from '../endpoint-registry.js';
import { notFound } from '../../core/errors.js';
import { buildOpenApi, CATEGORY_NAMES } from './openapi.js';
import { CATEGORIES, type Category } from '../../core/manifest-types.js';
import { makeAsset, sendAsset, type Asset } from './asset.js';
import { docsAsset, docsPage, docsPolicy } from './docs.js';
import { builtin, type Builtin } from '../builtin.js';

export interface DiscoveryDeps {
  registry: EndpointRegistry;
  config: Config;
  /** The whole built-in table: the OpenAPI document describes it beside the manifests. */
  builtins: () => readonly Builtin[];
}

/**
 * GET /openapi.json (everything), GET /openapi/<category>.json and GET /docs (+ its
 * assets), without a key. Documents are built on first request and kept: the registry
 * does not change while the process runs.
 */
export function discoveryBuiltins(deps: DiscoveryDeps): Builtin[] {
  const documents = new Map<string, Asset>();
  const document = (category?: Category) => {
    const key = category ?? '';
    let asset = documents.get(key);
    if (!asset)
      documents.set(
        key,
        (asset = makeAsset(
          'application/json; charset=utf-8',
          Buffer.from(JSON.stringify(buildOpenApi(deps.registry, deps.config, category, deps.builtins()))),
        )),
      );
    return asset;
  };
  // Swagger UI's configUrl: one document per category in its selector, the whole catalog last
  let swaggerConfig: Asset | undefined;
  const policy = docsPolicy(deps.config.publicBaseUrl);

  return [
    builtin({
      method: 'GET',
      path: '/openapi.json',
      auth: 'none',
      summary: 'OpenAPI 3.1 document of every endpoint and built-in route',
      handle: ({ ctx }) => sendAsset(ctx, document(), 'public, max-age=300'),
    }),
    builtin({
      method: 'GET',
      path: '/openapi/:file',
      auth: 'none',
      summary: `One category's part of the OpenAPI document: /openapi/<category>.json (${CATEGORIES.join(', ')})`,
      handle({ ctx, pathParams }) {
        const category = pathParams.file.replace(/\.json$/, '');
        if (!(CATEGORIES as readonly string[]).includes(category)) throw notFound(`No such category (one of ${CATEGORIES.join(', ')})`);
        sendAsset(ctx, document(category as Category), 'public, max-age=300');
      },
    }),
    builtin({
      method: 'GET',
      path: '/docs',
      auth: 'none',
      summary: 'Interactive API docs (Swagger UI, served locally), one category at a time',
      handle({ ctx }) {
        ctx.set('Content-Security-Policy', policy);
        sendAsset(ctx, docsPage(), 'no-cache');
      },
    }),
    builtin({
      method: 'GET',
      path: '/docs/swagger-config.json',
      auth: 'none',
      hidden: true,
      summary: "The docs page's document list",
      handle({ ctx }) {
        swaggerConfig ??= makeAsset('application/json; charset=utf-8', Buffer.from(JSON.stringify(docsConfig(deps.registry))));
        sendAsset(ctx, swaggerConfig, 'no-cache');
      },
    }),
    builtin({
      method: 'GET',
      path: '/docs/:file',
      auth: 'none',
      hidden: true,
      summary: "The docs page's assets",
      handle({ ctx, pathParams }) {
        const asset = docsAsset(pathParams.file);
        if (!asset) throw notFound('No such docs file');
        // the page asks for every asset with ?v=<swagger-ui version>, so a cached copy never goes stale
        sendAsset(ctx, asset, 'public, max-age=31536000, immutable');
      },
    }),
  ];
}

function docsConfig(registry: EndpointRegistry) {
  const counts = new Map<string, number>();
  for (const { endpoint } of registry.routes) counts.set(endpoint.category, (counts.get(endpoint.category) ?? 0) + 1);
  const urls = CATEGORIES.filter((c) => counts.has(c)).map((c) => ({ url: `/openapi/${c}.json`, name: `${CATEGORY_NAMES[c]} (${counts.get(c)})` }));
  urls.push({ url: '/openapi.json', name: `Everything (${registry.routes.length}, slow to render)` });
  return { urls, 'urls.primaryName': urls[0].name };
}
