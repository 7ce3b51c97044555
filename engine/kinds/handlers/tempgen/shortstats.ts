import { notFound } from '../../../core/errors.js';
import { ShortLinkStore } from '../../../features/shortener/store.js';
import { describeLink } from '../../../features/shortener/short-url.js';
import type { Params } from '../params.generated.js';
import { handler } from '../../../contract/handler.js';

/**
 * /api/tempgen/shortstats: a short link's target and clicks, for the key that made it. Any
 * other key gets the 404 of an unknown code (the target's query may hold what its owner
 * shares with no one; the clicks are the owner's business).
 */
export default handler<Params['tempgen/shortstats']>(async ({ params, options, call, setup }) => {
  const link = await new ShortLinkStore(setup.database).get(params.code);
  if (!link || link.ownerKeyId !== call.caller.keyId) throw notFound('No such short link of this key');
  return describeLink(link, call.baseUrl, options.prefix);
});
