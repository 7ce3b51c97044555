import type { Config } from '../../platform/config.js';
import { notFound } from '../../core/errors.js';
import { makeAsset, sendAsset, type Asset } from './asset.js';
import { galleryPage, GALLERY_SCRIPT, type GalleryEntry } from './gallery-page.js';
import { templateHash } from '../../features/effects/templates.js';
import type { EndpointRegistry } from '../endpoint-registry.js';
import type { Template } from '../../features/effects/template.generated.js';
import { builtin, type Builtin } from '../builtin.js';
import type { EngineScope } from '../../platform/scope.js';

/** Width of gallery previews. */
const PREVIEW_WIDTH = 320;
const PREVIEW_TEXT = { text: 'Manifold', text1: 'Manifold', text2: 'Effects' };

export type { GalleryEntry } from './gallery-page.js';

export function galleryEntries(templates: Template[], baseUrl: string): GalleryEntry[] {
  return templates.map((t) => {
    const path = `/api/${t.site}/${t.slug}`;
    const query =
      t.input === 'text2'
        ? 'text1=Manifold&text2=Effects'
        : t.input === 'image'
          ? 'url=https://example.com/photo.jpg'
          : t.input === 'image-text'
            ? 'url=https://example.com/photo.jpg&text=Manifold'
            : 'text=Manifold';
    return {
      slug: t.slug,
      name: t.name,
      family: t.family,
      description: t.description,
      tags: t.tags ?? [],
      path,
      example: `curl "${baseUrl}${path}?apikey=YOUR_KEY&${query}"`,
      preview: `/gallery/preview/${encodeURIComponent(t.slug)}.webp`,
    };
  });
}

/**
 * GET /gallery (no key): every effect template with its preview, a search box and
 * a copyable example request. Previews are rendered on first request through the
 * shared pool and cache, then served with a day-long cache lifetime.
 */
export function galleryBuiltins(deps: { config: Config; scope: EngineScope; registry: Pick<EndpointRegistry, 'routes'> }): Builtin[] {
  let templates: Map<string, { template: Template; hash: string }> | undefined;
  // the templates are the effect endpoints' own (their family items), collected (and hashed) on first use
  const bySlug = () =>
    (templates ??= new Map(
      deps.registry.routes
        .filter((r) => r.endpoint.adapter.kind === 'effect')
        .map((r) => (r.endpoint.adapter.config as { template: Template }).template)
        .map((template) => [template.slug, { template, hash: templateHash(template) }]),
    ));
  let page: Asset | undefined;
  const script = makeAsset('application/javascript; charset=utf-8', Buffer.from(GALLERY_SCRIPT));
  let photo: Buffer | undefined;
  const csp = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'self'; connect-src 'none'; base-uri 'none'; form-action 'none'";

  return [
    builtin({
      method: 'GET',
      path: '/gallery',
      auth: 'none',
      summary: 'Every image-effect template with a preview, a search box and an example request',
      handle({ ctx }) {
        page ??= makeAsset(
          'text/html; charset=utf-8',
          Buffer.from(
            galleryPage(
              galleryEntries(
                [...bySlug().values()].map((t) => t.template),
                deps.config.publicBaseUrl,
              ),
            ),
          ),
        );
        ctx.set('Content-Security-Policy', csp);
        sendAsset(ctx, page, 'no-cache');
      },
    }),
    builtin({
      method: 'GET',
      path: '/gallery/gallery.js',
      auth: 'none',
      hidden: true,
      summary: "The gallery page's script",
      handle: ({ ctx }) => sendAsset(ctx, script, 'public, max-age=3600'),
    }),
    builtin({
      method: 'GET',
      path: '/gallery/preview/:file',
      auth: 'none',
      hidden: true,
      summary: "A template's preview image (WebP)",
      async handle({ pathParams }) {
        const slug = pathParams.file.replace(/\.webp$/, '');
        const found = bySlug().get(slug);
        if (!found) throw notFound('No such effect template');
        const { template, hash } = found;
        const params = { ...PREVIEW_TEXT, size: PREVIEW_WIDTH, format: 'webp' as const };
        // the renderer (Skia, sharp, worker pool) loads with the first preview, not at boot
        const [{ renderCache, renderPool }, { samplePhoto }] = await Promise.all([
          import('../../features/effects/shared.js'),
          import('../../features/effects/sample-photo.js'),
        ]);
        photo ??= samplePhoto(480, 320);
        const preview = await renderCache(deps).get(`preview\0${slug}\0${hash}`, () =>
          renderPool(deps).render({ template, params, photo: template.input.startsWith('image') ? photo : undefined }),
        );
        return { type: 'binary', body: preview.data, contentType: preview.contentType, headers: { 'Cache-Control': 'public, max-age=86400' } };
      },
    }),
  ];
}
