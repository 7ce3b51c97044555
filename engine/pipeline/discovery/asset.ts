import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Context } from 'koa';

/**
 * A response body held in memory with its gzip form and ETags, computed once: the
 * OpenAPI document (megabytes for the full registry) and the docs UI's assets are
 * static for the life of the process, so nothing is re-serialised or re-compressed
 * per request, and revalidations get 304 without a body.
 */
export interface Asset {
  type: string;
  body: Buffer;
  /** Undefined for types that do not compress (images). */
  gzip?: Buffer;
  etag: string;
}

export function makeAsset(type: string, body: Buffer): Asset {
  const compressible = /^(text\/|application\/(json|javascript))/.test(type);
  const hash = crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return { type, body, gzip: compressible ? zlib.gzipSync(body, { level: 9 }) : undefined, etag: hash };
}

/** Send an asset, gzipped when the client accepts it, 304 when its copy is current. */
export function sendAsset(ctx: Context, asset: Asset, cacheControl: string): void {
  const gzip = asset.gzip && ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  ctx.vary('Accept-Encoding');
  ctx.set('Cache-Control', cacheControl);
  ctx.set('X-Content-Type-Options', 'nosniff');
  // each encoding is a different representation, so it gets its own tag
  ctx.etag = gzip ? `${asset.etag}-gz` : asset.etag;
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.type = asset.type;
  if (gzip) ctx.set('Content-Encoding', 'gzip');
  ctx.body = gzip ? asset.gzip : asset.body;
}
