import type Router from '@koa/router';
import { notFound } from '../errors.js';
import { contentTypeOf, isActiveContent, type FileStore } from './files.js';
import { sendFile } from './send-file.js';

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
    ctx.type = contentTypeOf(name);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (active) {
      ctx.set('Content-Security-Policy', "sandbox; default-src 'none'");
      ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    }
    await sendFile(ctx, file);
  });
}
