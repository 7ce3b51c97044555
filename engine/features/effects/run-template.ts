import crypto from 'node:crypto';
import type { AdapterSetup, Call } from '../../contract/call.js';
import type { FileOutput } from '../../contract/file-output.js';
import { renderedFile } from './deliver.js';
import type { ImageFormat } from './encode.js';
import { fetchPhoto, photoParamError } from './photo-input.js';
import type { RenderParams } from './render.js';
import type { Template } from './template.generated.js';
import { templateHash } from './templates.js';

/** Each template's content hash, made once: part of every render's cache key. */
const hashes = new WeakMap<Template, string>();

/**
 * One template's answer to one call, wherever the endpoint is (the effect adapter, or an
 * effect under another path: handlers/tools/effect-alias.ts): the photo at `url` fetched
 * (SSRF-guarded, or a data URL) when the template takes one, rendered in the shared worker
 * pool, identical requests (same template content, params and photo) once; the picture is
 * the call's file (deliver.ts renderedFile), which the engine sends as bytes or hosts.
 */
export async function runTemplate(setup: AdapterSetup, call: Call, template: Template): Promise<FileOutput> {
  let hash = hashes.get(template);
  if (hash === undefined) hashes.set(template, (hash = templateHash(template)));
  // Skia, sharp and the worker pool load with the first effect called, not at boot
  const { renderCache, renderPool } = await import('./shared.js');
  const photo = template.input.startsWith('image') ? await fetchPhoto(setup, call) : undefined;
  const params = renderParams(call.params);
  const key = crypto
    .createHash('sha256')
    .update(`${template.slug}\0${hash}\0${JSON.stringify(params, Object.keys(params).sort())}\0`)
    .update(photo ?? '')
    .digest('hex');
  const result = await renderCache(setup)
    .get(key, () => renderPool(setup).render({ template, params, photo }))
    .catch((err: unknown) => {
      throw photoParamError(err);
    });
  return renderedFile(result, template.slug);
}

/** What of a call's params the renderer takes. */
export function renderParams(params: Record<string, unknown>): RenderParams {
  const out: RenderParams = {};
  for (const key of ['text', 'text1', 'text2'] as const) if (typeof params[key] === 'string') out[key] = params[key] as string;
  if (typeof params.size === 'number') out.size = params.size;
  if (typeof params.format === 'string') out.format = params.format as ImageFormat;
  return out;
}
