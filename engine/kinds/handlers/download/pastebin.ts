import { urlMatcher } from '../../../features/media/url-match.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/download/pastebin: the text of a public or unlisted paste, from Pastebin's raw
 * route on the pastebin upstream. The user's URL (any of Pastebin's paste URL forms)
 * only contributes the paste's 8-character key, so nothing but Pastebin is fetched.
 * The text is answered as it is stored, whitespace included.
 */
const URLS = ['^https?://(?:www\\.|m\\.)?pastebin\\.com/(?:(?:raw|dl|print|clone|embed|embed_js|embed_iframe)/)?[A-Za-z0-9]{8}/?(?:[?#].*)?$'];
const matcher = urlMatcher(URLS, 'Pastebin paste');
/** Pastes are at most 512 KB on a free account, 10 MB on a paid one. */
const MAX_BYTES = 10 * 1024 * 1024;

export const pasteKey = (url: string): string => /([A-Za-z0-9]{8})\/?(?:[?#].*)?$/.exec(url)![1]!;

export default handler<Params['download/pastebin']>(async ({ params, call, setup }) => {
  matcher.check(params.url);
  const { body } = await setup.upstreams.buffer('pastebin', {
    path: `/raw/${pasteKey(params.url)}`,
    signal: call.signal,
    maxBytes: MAX_BYTES,
    notFound: 'No such paste: it was removed, expired or is private',
  });
  return body.toString('utf8');
});
