import { upstreamError } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/kutt: a short link made by Kutt (kutt.it, or a self-hosted Kutt at KUTT_URL) in
 * the operator's account (POST /api/v2/links, KUTT_API_KEY). The link is checked with the SSRF
 * guard first: a link to a private or unresolvable host is refused here (400).
 */
interface KuttLink {
  id?: string;
  address?: string;
  link?: string;
  target?: string;
}

export default handler<Params['tools/kutt']>(async ({ params, call, setup }) => {
  await setup.http.guard.checkUrl(params.url, 'url');
  const made = await setup.upstreams.call<KuttLink>('kutt', { method: 'POST', path: '/api/v2/links', json: { target: params.url }, signal: call.signal });
  if (typeof made?.link !== 'string' || !/^https?:\/\//.test(made.link)) throw upstreamError('kutt', 'no link in the answer');
  return { url: made.link, link: made.link, address: made.address ?? null, target: made.target ?? params.url };
});
