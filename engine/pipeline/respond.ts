import type { Context } from 'koa';
import { Readable } from 'node:stream';
import type { Output } from '../contract/call.js';
import type { ResultAlso } from '../core/manifest-types.js';
import type { SuccessEnvelope } from './envelope.js';
import { sendFile } from '../platform/storage/send-file.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Write an adapter's output: the envelope, raw bytes, a stored file (ranges honoured), or a redirect.
 * `resultAlso` is the endpoint's further places for a JSON result (`results`: where the genre's clients read it).
 */
export function respond(ctx: Context, envelope: SuccessEnvelope, output: Output, resultAlso?: readonly ResultAlso[]): void | Promise<void> {
  if (output.type === 'json') {
    // serialised here with its type set first, so Koa neither looks the type up nor stringifies
    ctx.res.setHeader('Content-Type', JSON_TYPE);
    ctx.body = envelope.json(output.result, resultAlso, output.text);
    return;
  }
  if (output.type === 'redirect') {
    ctx.status = output.status ?? 302;
    ctx.redirect(output.location);
    return;
  }
  ctx.type = output.contentType;
  if (output.filename) ctx.set('Content-Disposition', contentDisposition(output.filename));
  if (output.type === 'file') return sendFile(ctx, output.file);
  ctx.set(output.headers ?? {});
  ctx.body = output.body;
  const size = output.size ?? (Buffer.isBuffer(output.body) ? output.body.length : undefined);
  if (size !== undefined) ctx.length = size;
  if (output.body instanceof Readable) ctx.set('Cache-Control', 'no-store');
}

/** attachment; filename="safe ascii"; filename*=UTF-8''full (RFC 6266). */
export function contentDisposition(filename: string): string {
  const ascii =
    filename
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/["\\/]/g, '_')
      .slice(0, 150) || 'download';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename.replace(/[\\/]/g, '_'))}`;
}
