import type { Context } from 'koa';

/**
 * Where a client may put its API key (CONTRACT.md, Authentication), in the order
 * they are consulted: headers first, since clients are told to prefer them, then
 * the `apikey` query parameter, then an `apikey` field of a parsed JSON, form or
 * multipart body (koa-body puts multipart fields in ctx.request.body too).
 */

export const API_KEY_PARAM = 'apikey';

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

/** The API key the request presents, or undefined when it presents none. */
export function keyFromRequest(ctx: RequestLike): string | undefined {
  const body = ctx.request.body;
  return (
    bearerToken(ctx.get('Authorization')) ??
    firstString(ctx.get('X-API-Key')) ??
    firstString(ctx.query[API_KEY_PARAM]) ??
    (body !== null && typeof body === 'object' ? firstString((body as Record<string, unknown>)[API_KEY_PARAM]) : undefined)
  );
}
