import crypto from 'node:crypto';
import { deliver } from '../../effects/deliver.js';
import type { ImageFormat } from '../../effects/encode.js';
import { fetchPhoto, PHOTO_MAX_PIXELS } from '../../effects/photo-input.js';
import type { Template } from '../../effects/template-types.js';
import { templateHash } from '../../effects/templates.js';
import { invalidParameter } from '../../errors.js';
import { handler, Reply } from '../types.js';

/**
 * An effect under another path (endpoints/effects/alias-*.yaml): the template given in
 * `options.template` (the manifest's family item, read from templates/ at build time, so the
 * compiled registry carries it), rendered as its own endpoint renders it (engine/adapters/effect.ts):
 * the text, or the photo at `url` (SSRF-guarded, or a data URL), in the shared render pool and
 * cache, hosted `{image_url, …}` or the bytes with stream=true. A code endpoint rather than a
 * second `effect` one, so the gallery keeps one card per template.
 */
export default handler<{ text?: string; url?: string; size?: number; format?: ImageFormat }>(async ({ params, options, call, setup }) => {
  const template = options.template as Template;
  const [{ renderCache, renderPool }, { PHOTO_UNREADABLE }] = await Promise.all([import('../../effects/shared.js'), import('../../effects/render.js')]);
  const photo = template.input.startsWith('image') ? await fetchPhoto(setup, call, 'url') : undefined;
  const render = {
    ...(params.text !== undefined && { text: params.text }),
    ...(params.size !== undefined && { size: params.size }),
    ...(params.format && { format: params.format }),
  };
  const key = crypto
    .createHash('sha256')
    .update(`${template.slug}\0${templateHash(template)}\0${JSON.stringify(render, Object.keys(render).sort())}\0`)
    .update(photo ?? '')
    .digest('hex');
  const result = await renderCache(setup.config)
    .get(key, () => renderPool(setup.config).render({ template, params: render, photo }))
    .catch((err: Error) => {
      throw err.message?.startsWith(PHOTO_UNREADABLE) ? invalidParameter('url', `not a supported image, or over ${PHOTO_MAX_PIXELS / 1e6} megapixels`) : err;
    });
  return new Reply(await deliver(setup, call, result, template.slug));
});
