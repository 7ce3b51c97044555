import { parse as parseDomain } from 'tldts';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['checker/url']>(({ params }) => {
  let parsed: URL;
  try {
    parsed = new URL(params.url);
  } catch {
    return { valid: false, url: params.url, reason: 'not an absolute URL' };
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  const host = parseDomain(parsed.hostname);
  const hostOk = host.isIp || parsed.hostname === 'localhost' || Boolean(host.isIcann && host.domain);
  return {
    valid: web && hostOk,
    url: parsed.href,
    protocol: parsed.protocol.replace(/:$/, ''),
    hostname: parsed.hostname,
    secure: parsed.protocol === 'https:',
    isIp: Boolean(host.isIp),
    publicSuffix: host.publicSuffix,
    reason: !web ? 'only http and https URLs are web URLs' : !hostOk ? 'the host has no known public suffix' : undefined,
  };
});
