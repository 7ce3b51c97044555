import { ApiError } from '../../../core/errors.js';
import { upstreamStatusOf } from '../../../platform/http/client.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/server-check: is the site at `url` up? One GET through the SSRF guard (redirects
 * followed, each checked), timed until the answer's headers arrive; the body is not read.
 * `status` is `online` for a 2xx answer, `error` for any other HTTP answer (the server is
 * reachable but refuses or fails the page), `offline` when nothing answers (no such host,
 * refused, reset, timed out). A 2xx is reported as `http_code: 200`: the guarded client
 * tells a success from a failure, not which 2xx it was.
 */
const TIMEOUT_MS = 10_000;

export default handler<Params['tools/server-check']>(async ({ params, call, setup }) => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const base = { link: params.url, url: params.url, checked_at: new Date().toISOString() };
  try {
    const { body, finalUrl } = await setup.http.streamUserUrl(params.url, { timeoutMs: TIMEOUT_MS, signal: call.signal, maxBytes: 1 << 30 });
    const response_time_ms = elapsed();
    body.destroy();
    return { ...base, status: 'online', online: true, http_code: 200, response_time_ms, final_url: finalUrl };
  } catch (err) {
    // the client's own mistakes (not a URL, a private address) stay 4xx answers
    if (err instanceof ApiError && err.status < 500) throw err;
    const code = upstreamStatusOf(err);
    if (code !== undefined) return { ...base, status: 'error', online: true, http_code: code, response_time_ms: elapsed(), final_url: null };
    return { ...base, status: 'offline', online: false, http_code: null, response_time_ms: elapsed(), final_url: null, reason: (err as Error).message };
  }
});
