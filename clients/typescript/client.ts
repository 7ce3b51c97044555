/**
 * The typed client's factory, generic over the `paths` type openapi-typescript
 * generates from a Manifold server's /openapi.json (schema.d.ts, `npm run client`).
 * Calls go through openapi-fetch: `api.GET('/api/fun/quote', { params: { query: {…} } })`
 * checks the path, the method, the parameters and the answer's shape at compile time
 * and answers `{ data, error, response }` — `data` the success envelope, `error` the
 * error envelope — without a wrapper per endpoint (1,500+ of them).
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';

export interface ManifoldClientOptions extends ClientOptions {
  /** The server's origin, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** Sent as the `X-API-Key` header on every call (never in the URL, where logs would keep it). */
  apiKey?: string;
}

export function manifoldClient<Paths extends {}>({ apiKey, headers, ...options }: ManifoldClientOptions): Client<Paths> {
  return createClient<Paths>({ ...options, headers: { ...(apiKey ? { 'X-API-Key': apiKey } : {}), ...(headers as Record<string, string> | undefined) } });
}
