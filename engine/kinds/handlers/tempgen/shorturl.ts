import { invalidParameter } from '../../../core/errors.js';
import { ShortLinkStore } from '../../../features/shortener/store.js';
import { describeLink } from '../../../features/shortener/short-url.js';
import type { Params } from '../params.generated.js';
import { handler } from '../../../contract/handler.js';

/**
 * /api/tempgen/shorturl: url [+ alias] -> the short URL (`options.result: url`, what
 * clients of the genre read) or the link's facts (`object`). Shortening a URL twice
 * gives one code.
 */
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

export default handler<Params['tempgen/shorturl']>(async ({ params, options, call, setup }) => {
  const link = await new ShortLinkStore(setup.database).create(webUrl(params.url), call.caller.keyId, params.alias);
  if (!link) throw invalidParameter('alias', 'is already taken');
  const described = describeLink(link, call.baseUrl, options.prefix);
  return options.result === 'object' ? described : described.short;
});
