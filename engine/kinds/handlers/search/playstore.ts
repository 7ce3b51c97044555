import { notFound, upstreamError } from '../../../core/errors.js';
import { parseSearchPage } from '../../scrape/google-play.js';
import { runPoolTask } from '../pool-tasks.js';
import { handler, poolTask } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** /api/search/playstore: apps from Google Play's own search page (no API or key exists for it). */
export default handler<Params['search/playstore']>(async ({ params, call, setup }) => {
  const html = await setup.upstreams.text('google-play', {
    path: '/store/search',
    query: { q: params.query, c: 'apps', hl: params.lang, gl: params.country },
    signal: call.signal,
  });
  return runPoolTask('search/playstore#extract', { html, limit: params.limit }, { signal: call.signal, services: setup });
});

/** The page's apps, read in the code pool. */
export const extract = poolTask<{ html: string; limit: number }>()(({ params: { html, ...params } }) => {
  const { blocks, apps } = parseSearchPage(html);
  if (!blocks) throw upstreamError('google-play', 'the search page carries no app data (a consent or bot-check page, or its layout changed)');
  if (!apps.length) throw notFound('No Google Play app matches');
  // the app's Play page also as url, which Neurotech-MD reads (result[].url)
  return apps.slice(0, params.limit).map((app) => ({ ...app, url: app.link }));
});
