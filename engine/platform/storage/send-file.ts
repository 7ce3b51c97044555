import type { Context } from 'koa';
import type { OpenedFile } from './files.js';

/**
 * Send a stored file with single byte ranges honoured (media players seek): 206 with
 * Content-Range, 416 for a range outside the file, 200 otherwise. HEAD gets the
 * headers only (no read: for S3, no GET). The caller sets type and disposition.
 */
export async function sendFile(ctx: Context, file: OpenedFile): Promise<void> {
  const { size } = file;
  ctx.set('Accept-Ranges', 'bytes');
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
  if (ctx.method !== 'HEAD') ctx.body = await file.read(range);
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
