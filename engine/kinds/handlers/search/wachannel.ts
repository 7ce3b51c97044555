import { notFound, upstreamError } from '../../../core/errors.js';
import { PageData, displayCount } from '../../../features/tools/html/page-data.js';
import { runPoolTask } from '../pool-tasks.js';
import { handler, poolTask } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/stalk/wachannel: a WhatsApp channel's public page (upstream `whatsapp-web`), read
 * for its Open Graph tags (name, description, picture) and the "Channel | 8.3K followers"
 * line. WhatsApp answers an unknown invite code with its generic page, not a 404: a page
 * naming no channel is not found; a channel page without a follower count means the page
 * changed, an upstream error rather than a made-up count.
 */
const UPSTREAM = 'whatsapp-web';
/** The last path segment of a channel link, or the bare code (the manifest's pattern admits only these). */
const CODE = /([A-Za-z0-9]{10,40})\/?(?:[?#].*)?$/;
/** WhatsApp's own title words around a channel's name, and its titles for pages that name none. */
const TITLE_DECOR = /\s*(?:\|\s*)?WhatsApp Channel\s*(?:\|\s*)?/i;
const GENERIC = /^(?:WhatsApp(?: Channel)?|WhatsApp Web|)$/i;
const FOLLOWERS = /(\d[\d,.]*\s*[KMB]?)\s+followers?/i;

export default handler<Params['search/wachannel']>(async ({ params, call, setup }) => {
  const code = CODE.exec(params.url.trim())![1];
  const html = await setup.upstreams.text(UPSTREAM, { path: `/channel/${code}`, signal: call.signal, notFound: 'No WhatsApp channel has this link' });
  return runPoolTask('search/wachannel#extract', { html, code }, { signal: call.signal, services: setup });
});

/** The channel from its page's tags, read in the code pool. */
export const extract = poolTask<{ html: string; code: string }>()(({ params: { html, code } }) => {
  const page = new PageData(html, UPSTREAM);
  const name = (page.meta('og:title') ?? page.texts('title')[0] ?? '').replace(TITLE_DECOR, '').trim();
  if (GENERIC.test(name)) throw notFound('No WhatsApp channel has this link (or it was removed)');
  const followersText = [...page.texts('h5'), page.meta('description') ?? ''].map((text) => FOLLOWERS.exec(text)?.[0]).find(Boolean);
  if (!followersText) throw upstreamError(UPSTREAM, 'the channel page shows no follower count');
  const description = page.meta('og:description') ?? '';
  return {
    name,
    title: name,
    description,
    followers: displayCount(followersText)!,
    followers_text: followersText,
    img: page.meta('og:image') ?? null,
    code,
    url: `https://whatsapp.com/channel/${code}`,
  };
});
