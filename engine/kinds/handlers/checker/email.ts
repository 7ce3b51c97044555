import { createRequire } from 'node:module';
import { isNoData, resolverFor } from '../../../features/tools/dns.js';
import { handler } from '../../../contract/handler.js';
import type { UpstreamRegistry } from '../../../catalog/upstreams.js';
import type { Params } from '../params.generated.js';

// a CommonJS JSON list of ~120k domains; a Set makes each lookup O(1)
const disposable = new Set<string>(createRequire(import.meta.url)('disposable-email-domains'));

const EMAIL =
  /^(?=.{1,254}$)(?=.{1,64}@)[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+)$/;

/** MX lookup with a short, bounded timeout. */
async function mxRecords(domain: string, upstreams: UpstreamRegistry, signal?: AbortSignal) {
  const resolver = resolverFor(upstreams);
  try {
    const records = (await resolver.resolve(domain, 'MX', signal)).map(({ data }) => ({ exchange: data.exchange, priority: data.preference }));
    return { checked: true, found: records.length > 0, records: records.sort((a, b) => a.priority - b.priority) };
  } catch (err) {
    if (signal?.aborted) throw err; // the request is over (client gone, deadline): nothing to report
    const code = (err as { code?: string }).code ?? 'ERROR';
    // NODATA/NOTFOUND are answers ("no MX"); anything else means we could not tell
    const answered = isNoData(code);
    return { checked: answered, found: answered ? false : null, records: [], error: answered ? undefined : code };
  }
}

export default handler<Params['checker/email']>(async ({ params, setup, call }) => {
  const address = String(params.email).trim();
  const m = EMAIL.exec(address);
  const domain = m ? m[1].toLowerCase() : (address.split('@').pop()?.toLowerCase() ?? '');
  const parent = domain.split('.').slice(-2).join('.');
  const isDisposable = disposable.has(domain) || disposable.has(parent);
  const result: Record<string, unknown> = { email: address, validSyntax: Boolean(m), domain: m ? domain : null, disposable: isDisposable };
  if (m && params.mx) result.mx = await mxRecords(domain, setup.upstreams, call.signal);
  result.valid = Boolean(m) && !isDisposable && (!params.mx || (result.mx as { found: boolean | null }).found !== false);
  return result;
});
