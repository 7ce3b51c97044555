import { invalidParameter, notFound } from '../errors.js';
import { ShortLinkStore } from '../shortener/store.js';
import { json, type AdapterKind } from './types.js';

/**
 * URL shortener over the engine's database (SQLite, or PostgreSQL with DATABASE_URL). One kind, three actions named by the manifest:
 * `create` (url [+ alias] -> short URL), `redirect` (code -> 302 to the target,
 * counting the click) and `stats` (code -> target and clicks). Short URLs are
 * `<PUBLIC_BASE_URL><prefix><code>`, the prefix being the redirect endpoint's path.
 */
interface ShortenerConfig {
  action: 'create' | 'redirect' | 'stats';
  /** Path the short URLs point at (the redirect endpoint), e.g. /s/. */
  prefix?: string;
  /** create: `url` answers the short URL string alone (what clients of the genre read), `object` adds the facts. */
  result?: 'url' | 'object';
}


function webUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter('url', 'is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidParameter('url', 'must be an http or https URL');
  return url.href;
}

export const shortener: AdapterKind<ShortenerConfig> = {
  kind: 'shortener',
  cost: 'io',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['action'],
    properties: {
      action: { enum: ['create', 'redirect', 'stats'] },
      prefix: { type: 'string', pattern: '^/([A-Za-z0-9_-]+/)*$', default: '/s/' },
      result: { enum: ['url', 'object'] },
    },
  },
  create(config, setup) {
    const prefix = config.prefix ?? '/s/';
    const describe = (link: { code: string; url: string; clicks: number; createdAt: string; lastClickAt: string | null }, baseUrl: string) => ({
      short: `${baseUrl}${prefix}${link.code}`,
      ...link,
    });
    const store = new ShortLinkStore(setup.config);
    return async ({ params, baseUrl }) => {
      if (config.action === 'create') {
        const link = await store.create(webUrl(params.url), params.alias);
        if (!link) throw invalidParameter('alias', 'is already taken by another URL');
        const described = describe(link, baseUrl);
        return json(config.result === 'object' ? described : described.short);
      }
      if (config.action === 'redirect') {
        const target = await store.click(params.code);
        if (!target) throw notFound('No such short link');
        return { type: 'redirect', location: target, status: 302 };
      }
      const link = await store.get(params.code);
      if (!link) throw notFound('No such short link');
      return json(describe(link, baseUrl));
    };
  },
};
