import { parse as parseDomain } from 'tldts';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['checker/domain']>(({ params }) => {
  const name = String(params.domain).trim().toLowerCase().replace(/\.$/, '');
  const info = parseDomain(name, { allowPrivateDomains: true });
  const syntax = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(name) || /^xn--/.test(name);
  return {
    valid: syntax && Boolean(info.domain) && !info.isIp,
    domain: info.domain,
    hostname: info.hostname,
    subdomain: info.subdomain || null,
    publicSuffix: info.publicSuffix,
    isIcann: info.isIcann,
    isPrivateSuffix: info.isPrivate,
    isIp: info.isIp,
  };
});
