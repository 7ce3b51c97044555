import { UAParser } from 'ua-parser-js';
import { redactHeaders } from '../../../platform/auth/redact.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** What the server sees of the caller: address, parsed user agent, headers (credentials blanked). */
export default handler<Params['tools/myip']>(({ call }) => {
  const headers = call.client?.headers ?? {};
  const ua = String(headers['user-agent'] ?? '');
  const { browser, os, device } = new UAParser(ua).getResult();
  const ip = (call.client?.ip ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return {
    ip,
    ipVersion: ip.includes(':') ? 6 : 4,
    userAgent: ua,
    browser: { ...browser },
    os: { ...os },
    device: { ...device },
    acceptLanguage: headers['accept-language'] ?? null,
    headers: redactHeaders(headers),
  };
});
