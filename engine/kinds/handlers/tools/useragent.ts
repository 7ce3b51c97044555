import { UAParser } from 'ua-parser-js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Web developer helpers: user agents, JWTs, URLs, number bases. */

export default handler<Params['tools/useragent']>(({ params }) => {
  const { browser, engine, os, device, cpu } = new UAParser(params.ua).getResult();
  const isBot = /bot|crawler|spider|slurp|curl|wget|python-requests|httpclient/i.test(params.ua);
  return { ua: params.ua, browser: { ...browser }, engine: { ...engine }, os: { ...os }, device: { ...device }, cpu: { ...cpu }, isBot };
});
