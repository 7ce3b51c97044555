import { invalidParameter } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/urlparse']>(({ params }) => {
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    throw invalidParameter('url', 'is not an absolute URL');
  }
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return {
    href: url.href,
    protocol: url.protocol.replace(/:$/, ''),
    username: url.username || null,
    host: url.host,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : null,
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
    origin: url.origin,
    query,
  };
});
