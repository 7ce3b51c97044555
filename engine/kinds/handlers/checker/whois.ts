import { upstreamError } from '../../../core/errors.js';
import { query, whoisUpstream } from '../../../features/tools/whois.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * WHOIS (RFC 3912): ask whois.iana.org which registry serves the TLD (`refer:`),
 * then ask that registry, and for thin registries (.com/.net) follow its
 * `Registrar WHOIS Server` once more. The servers and the budget per query come
 * from the `whois` upstream (engine/features/tools/whois.ts).
 */
/** "Key: value" lines, first value per lower-cased key, plus every value per key. */
function fields(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z][A-Za-z0-9 /._-]{1,60}?):\s*(.+?)\s*$/.exec(line);
    if (!m) continue;
    const key = m[1].toLowerCase();
    map.set(key, [...(map.get(key) ?? []), m[2]]);
  }
  return map;
}

const first = (f: Map<string, string[]>, ...keys: string[]) => keys.map((k) => f.get(k)?.[0]).find(Boolean) ?? null;

export default handler<Params['checker/whois']>(async ({ params, call, setup }) => {
  const domain = String(params.domain).toLowerCase().replace(/\.$/, '');
  const { discovery, direct, timeoutMs } = whoisUpstream(setup.upstreams);
  let server: string | undefined = direct;
  if (!server) {
    const tld = domain.split('.').pop()!;
    server = first(fields(await query(discovery, tld, call.signal, timeoutMs)), 'refer', 'whois') ?? undefined;
    if (!server) throw upstreamError('whois', `no WHOIS server is known for .${tld}`);
  }
  let text = await query(server, domain, call.signal, timeoutMs);
  const referral = first(fields(text), 'registrar whois server');
  if (!direct && referral && referral !== server) {
    text = await query(referral.replace(/^whois:\/\//, ''), domain, call.signal, timeoutMs).catch(() => text);
  }
  const f = fields(text);
  const notFound = /no match|not found|no data found|no entries found|status:\s*free|available for registration/i.test(text) && !f.has('domain name');
  const creationDate = first(f, 'creation date', 'created', 'registered', 'registered on');
  const expirationDate = first(f, 'registry expiry date', 'registrar registration expiration date', 'expiration date', 'expiry date', 'expires', 'paid-till');
  return {
    domainName: first(f, 'domain name', 'domain')?.toLowerCase() ?? domain,
    registered: !notFound,
    registrar: first(f, 'registrar', 'sponsoring registrar', 'registrar name'),
    creationDate,
    expirationDate,
    updatedDate: first(f, 'updated date', 'last updated', 'changed', 'last-modified'),
    created: creationDate,
    expires: expirationDate,
    nameServers: [...new Set((f.get('name server') ?? f.get('nserver') ?? []).map((s) => s.toLowerCase().split(/\s+/)[0]))],
    status: (f.get('domain status') ?? f.get('status') ?? []).map((s) => s.split(/\s+/)[0]),
    server,
    raw: text.trim(),
  };
});
