import { notFound } from '../../errors.js';
import { ShortLinkStore } from '../../shortener/store.js';
import { describeLink } from '../../shortener/short-url.js';
import type { Params } from '../params.generated.js';
import { handler } from '../types.js';

/** /api/tempgen/shortstats: a short link's target and clicks. */
export default handler<Params['tempgen/shortstats']>(async ({ params, options, call, setup }) => {
  const link = await new ShortLinkStore(setup.config).get(params.code);
  if (!link) throw notFound('No such short link');
  return describeLink(link, call.baseUrl, options.prefix);
});
