import crypto from 'node:crypto';
import { TEMPLATE_SCHEMA, templateHash } from '../effects/templates.js';
import type { Template } from '../effects/template-types.js';
import { fetchPhoto, PHOTO_MAX_PIXELS } from '../effects/photo-input.js';
import { invalidParameter } from '../errors.js';
import type { RenderParams, RenderResult } from '../effects/render.js';
import type { ImageFormat } from '../effects/encode.js';
import { deliver } from '../effects/deliver.js';
import type { AdapterKind } from './types.js';

/**
 * Image effects from template data (templates/*.yaml): one renderer, one endpoint
 * per template. Each template is its endpoint's family item (`template: "{{.}}"`),
 * so it is checked with the manifests and kept in the compiled registry. Renders
 * run in the shared worker pool; identical requests (same template content, params
 * and photo) render once.
 */
interface EffectConfig {
  template: Template;
}

export const effect: AdapterKind<EffectConfig> = {
  kind: 'effect',
  cost: 'heavy',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['template'],
    properties: { template: TEMPLATE_SCHEMA },
  },
  async create({ template }, setup) {
    const hash = templateHash(template);
    // Skia, sharp and the worker pool load with the first effect called, not at boot
    const [{ PHOTO_UNREADABLE }, { renderCache, renderPool }] = await Promise.all([import('../effects/render.js'), import('../effects/shared.js')]);
    /** Identical requests (same template content, params and photo) render once. */
    const render = (params: RenderParams, photo?: Buffer): Promise<RenderResult> => {
      const key = crypto
        .createHash('sha256')
        .update(`${template.slug}\0${hash}\0${JSON.stringify(params, Object.keys(params).sort())}\0`)
        .update(photo ?? '')
        .digest('hex');
      return renderCache(setup.config).get(key, () => renderPool(setup.config).render({ template, params, photo }));
    };
    return async (call) => {
      const photo = template.input.startsWith('image') ? await fetchPhoto(setup, call) : undefined;
      const result = await render(renderParams(call.params), photo).catch((err: Error) => {
        throw err.message?.startsWith(PHOTO_UNREADABLE) ? invalidParameter('url', `not a supported image, or over ${PHOTO_MAX_PIXELS / 1e6} megapixels`) : err;
      });
      return deliver(setup, call, result, template.slug);
    };
  },
};

export function renderParams(params: Record<string, unknown>): RenderParams {
  const out: RenderParams = {};
  for (const key of ['text', 'text1', 'text2'] as const) if (typeof params[key] === 'string') out[key] = params[key] as string;
  if (typeof params.size === 'number') out.size = params.size;
  if (typeof params.format === 'string') out.format = params.format as ImageFormat;
  return out;
}

/** Bytes with stream=true, otherwise the envelope with a hosted URL. */
