import { upstreamError } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/tnyim: the link shortened by tny.im (a public YOURLS API, no key:
 * GET /yourls-api.php?action=shorturl&format=json&url=). The link is checked with the SSRF
 * guard first (a short link to a private host would reach nobody). YOURLS answers a URL it
 * already holds with status "fail" and that URL's existing short link, which is as good.
 */
interface Yourls {
  status?: string;
  shorturl?: string;
  message?: string;
}

export default handler<Params['tools/tnyim']>(async ({ params, call, setup }) => {
  await setup.http.guard.checkUrl(params.url, 'url');
  const answer = await setup.upstreams.call<Yourls>('tnyim', {
    path: '/yourls-api.php',
    query: { action: 'shorturl', format: 'json', url: params.url },
    signal: call.signal,
  });
  if (typeof answer?.shorturl === 'string' && /^https?:\/\//.test(answer.shorturl)) return answer.shorturl;
  throw upstreamError('tnyim', answer?.message ? String(answer.message).slice(0, 200) : 'no short link in the answer');
});
