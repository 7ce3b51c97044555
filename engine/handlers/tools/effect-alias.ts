import crypto from 'node:crypto';
import { deliver } from '../../effects/deliver.js';
import type { ImageFormat } from '../../effects/encode.js';
import type { Template } from '../../effects/template-types.js';
import { templateHash } from '../../effects/templates.js';
import { handler, Reply } from '../types.js';

/**
 * A text effect under another path (endpoints/effects/alias-*.yaml): the template given in
 * `options.template` (the manifest's family item, read from templates/ at build time, so the
 * compiled registry carries it), rendered as its own endpoint renders it (engine/adapters/effect.ts):
 * the shared render pool and cache, hosted `{image_url, …}` or the bytes with stream=true. A code
 * endpoint rather than a second `effect` one, so the gallery keeps one card per template.
 */
export default handler<{ text: string; size?: number; format?: ImageFormat }>(async ({ params, options, call, setup }) => {
  const template = options.template as Template;
  const [{ renderCache, renderPool }] = await Promise.all([import('../../effects/shared.js')]);
  const render = { text: params.text, ...(params.size !== undefined && { size: params.size }), ...(params.format && { format: params.format }) };
  const key = crypto
    .createHash('sha256')
    .update(`${template.slug}\0${templateHash(template)}\0${JSON.stringify(render, Object.keys(render).sort())}\0`)
    .digest('hex');
  const result = await renderCache(setup.config).get(key, () => renderPool(setup.config).render({ template, params: render }));
  return new Reply(await deliver(setup, call, result, template.slug));
});
