import crypto from 'node:crypto';
import path from 'node:path';
import { loadTemplates, type LoadedTemplate } from '../effects/templates.js';
import { renderCache, renderPool } from '../effects/shared.js';
import { fetchPhoto, PHOTO_MAX_PIXELS } from '../effects/photo-input.js';
import { invalidParameter } from '../errors.js';
import { PHOTO_UNREADABLE, type RenderParams, type RenderResult } from '../effects/render.js';
import type { ImageFormat } from '../effects/encode.js';
import { json, type AdapterKind, type AdapterSetup, type Call, type Output } from './types.js';

/**
 * Image effects from template data (templates/*.yaml): one renderer, one
 * endpoint per template. Renders run in the shared worker pool; identical
 * requests (same template content, params and photo) render once.
 */
interface EffectConfig {
  /** Template directory, relative to the manifest. */
  templates: string;
  slug: string;
}

export const effect: AdapterKind<EffectConfig> = {
  kind: 'effect',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['templates', 'slug'],
    properties: {
      templates: { type: 'string', description: 'Directory of template YAML files, relative to the manifest' },
      slug: { type: 'string', description: 'Template slug to render' },
    },
  },
  unavailable(config, setup) {
    try {
      return loadTemplates(path.resolve(setup.manifestDir, config.templates)).has(config.slug) ? undefined : `no template ${config.slug}`;
    } catch (err) {
      return `templates failed to load: ${(err as Error).message}`;
    }
  },
  create(config, setup) {
    const loaded = loadTemplates(path.resolve(setup.manifestDir, config.templates)).get(config.slug)!;
    return async (call) => {
      const photo = loaded.template.input.startsWith('image') ? await fetchPhoto(setup, call) : undefined;
      const result = await renderCached(setup, loaded, renderParams(call.params), photo).catch((err: Error) => {
        throw err.message?.startsWith(PHOTO_UNREADABLE) ? invalidParameter('url', `not a supported image, or over ${PHOTO_MAX_PIXELS / 1e6} megapixels`) : err;
      });
      return deliver(setup, call, result, loaded.template.slug);
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

function renderCached(setup: AdapterSetup, loaded: LoadedTemplate, params: RenderParams, photo?: Buffer): Promise<RenderResult> {
  const key = crypto.createHash('sha256')
    .update(`${loaded.template.slug}\0${loaded.hash}\0${JSON.stringify(params, Object.keys(params).sort())}\0`)
    .update(photo ?? '')
    .digest('hex');
  return renderCache().get(key, () => renderPool(setup.config.env).render({ template: loaded.template, params, photo }));
}

/** Bytes with stream=true, otherwise the envelope with a hosted URL. */
export async function deliver(setup: AdapterSetup, call: Call, r: RenderResult, name: string): Promise<Output> {
  if (call.params.stream) {
    return { type: 'binary', body: r.data, contentType: r.contentType, filename: `${name}.${r.format}`, size: r.data.length, headers: { 'Cache-Control': 'public, max-age=86400' } };
  }
  const stored = await setup.files.put(r.data, { ext: r.format });
  return json({ image_url: stored.url, format: r.format, width: r.width, height: r.height, size: r.data.length });
}
