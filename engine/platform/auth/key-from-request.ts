import type { Context } from 'koa';
import { API_KEY_PARAM } from '../../core/implicit-params.js';

/**
 * Where a client may put its API key (docs/using/contract.md, Authentication), in the order
 * they are consulted: headers first, since clients are told to prefer them, then
 * the `apikey` query parameter, then an `apikey` field of a parsed JSON, form or
 * multipart body. In a multipart upload the field must come before the first file:
 * the pipeline refuses the file otherwise (pipeline/endpoint.ts).
 */

type RequestLike = Pick<Context, 'get' | 'query'> & { request: { body?: unknown } };

/** The first non-empty string of a header/param value that may be repeated. */
const firstString = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
};

/** The token of an `Authorization: Bearer <token>` header value (scheme case-insensitive). */
export function bearerToken(authorization: string): string | undefined {
  return /^bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
}

/**
 * The key a request presents before its body: a header or the query. The pipeline
 * authenticates with it before reading a byte of the body (keys before bodies).
 */
export function keyBeforeBody(ctx: Pick<Context, 'get' | 'query'>): string | undefined {
  return bearerToken(ctx.get('Authorization')) ?? firstString(ctx.get('X-API-Key')) ?? firstString(ctx.query[API_KEY_PARAM]);
}

/** The `apikey` field of a parsed body (JSON object, form, multipart fields), if any. */
export function keyInBody(body: unknown): string | undefined {
  return body !== null && typeof body === 'object' ? firstString((body as Record<string, unknown>)[API_KEY_PARAM]) : undefined;
}

/** The API key the request presents, or undefined when it presents none. */
export function keyFromRequest(ctx: RequestLike): string | undefined {
  return keyBeforeBody(ctx) ?? keyInBody(ctx.request.body);
}
