import { invalidParameter, upstreamError } from '../../../core/errors.js';
import { upstreamStatusOf } from '../../../platform/http/client.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/isgd and /api/tools/vgd: the link shortened by is.gd or v.gd (one API,
 * GET /create.php?format=json&url=, upstream `options.upstream`). The link is checked
 * with the SSRF guard first: a link to a private or unresolvable host is refused here
 * (400), it would only make a short link to somewhere nobody else can reach. The
 * service's own refusal (its `errorcode` 1: an invalid or banned link, HTTP 400) is
 * a 400 as well; its rate limit or an outage is a 502.
 */
interface Created {
  shorturl?: string;
  errorcode?: number;
  errormessage?: string;
}

export default handler<Params['tools/isgd']>(async ({ params, options, call, setup }) => {
  await setup.http.guard.checkUrl(params.url, 'url');
  const upstream = String(options.upstream);
  let answer: Created;
  try {
    answer = await setup.upstreams.call<Created>(upstream, { path: '/create.php', query: { format: 'json', url: params.url }, signal: call.signal });
  } catch (err) {
    if (upstreamStatusOf(err) === 400) throw invalidParameter('url', `${options.host} refused to shorten this link`);
    throw err;
  }
  if (typeof answer?.shorturl === 'string' && /^https:\/\//.test(answer.shorturl)) return answer.shorturl;
  if (answer?.errorcode === 1)
    throw invalidParameter('url', `${options.host} refused to shorten this link: ${String(answer.errormessage ?? '').slice(0, 200)}`);
  throw upstreamError(upstream, answer?.errormessage ? String(answer.errormessage).slice(0, 200) : 'no short link in the answer');
});
