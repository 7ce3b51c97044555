import type Router from '@koa/router';
import { notFound } from '../errors.js';
import { contentTypeOf, isActiveContent, type FileStore } from './files.js';

/**
 * GET /files/:name — hosted files (effect images, uploads, code images). Names are
 * content hashes, so responses are immutable and cacheable for a year. Types a
 * browser would execute are sandboxed and downloaded, never rendered on our origin.
 * Single byte ranges are honoured (media players seek). With a public bucket or CDN
 * configured (S3_PUBLIC_URL), passive files redirect there; active ones are always
 * proxied so the sandboxing headers above still apply.
 */
export function registerFileRoute(router: Router, files: FileStore): void {
  router.get('/files/:name', async (ctx) => {
    const name = String(ctx.params.name);
    const file = await files.open(name);
    if (!file) throw notFound('No such file');
    const active = isActiveContent(name);
    if (file.publicUrl && !active) {
      ctx.redirect(file.publicUrl);
      return;
    }
    const { size } = file;
    ctx.type = contentTypeOf(name);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Accept-Ranges', 'bytes');
    if (active) {
      ctx.set('Content-Security-Policy', "sandbox; default-src 'none'");
      ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    }
    const range = parseRange(ctx.get('Range'), size);
    if (range === 'invalid') {
      ctx.status = 416;
      ctx.set('Content-Range', `bytes */${size}`);
      ctx.body = '';
      return;
    }
    if (range) {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    } else {
      ctx.status = 200;
    }
    ctx.length = range ? range.end - range.start + 1 : size;
    // HEAD needs only the headers: no read (for S3, no GET)
    if (ctx.method !== 'HEAD') ctx.body = await file.read(range);
  });
}

function parseRange(header: string, size: number): { start: number; end: number } | 'invalid' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? 'invalid' : { start, end };
}
