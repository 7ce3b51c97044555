import { notFound } from '../../core/errors.js';
import { builtin, type Builtin } from '../builtin.js';
import { contentTypeOf, isActiveContent, type FileStore } from '../../platform/storage/files.js';

/**
 * GET /files/:name — hosted files (effect images, uploads, code images). Names are
 * content hashes, so responses are immutable and cacheable for a year. Types a
 * browser would execute are sandboxed and downloaded, never rendered on our origin.
 * Single byte ranges are honoured (media players seek). With a public bucket or CDN
 * configured (S3_PUBLIC_URL), passive files redirect there; active ones are always
 * proxied so the sandboxing headers above still apply.
 */
export function fileBuiltins(files: FileStore): Builtin[] {
  return [
    builtin({
      method: 'GET',
      path: '/files/:name',
      auth: 'none',
      summary: 'A hosted file (uploads, generated images, downloads) by its content-hash name; byte ranges honoured',
      async handle({ ctx, pathParams }) {
        const { name } = pathParams;
        const file = await files.open(name);
        if (!file) throw notFound('No such file');
        const active = isActiveContent(name);
        if (file.publicUrl && !active) return { type: 'redirect', location: file.publicUrl };
        ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
        ctx.set('X-Content-Type-Options', 'nosniff');
        if (active) ctx.set('Content-Security-Policy', "sandbox; default-src 'none'");
        return { type: 'file', file, contentType: contentTypeOf(name), filename: active ? name : undefined };
      },
    }),
  ];
}
