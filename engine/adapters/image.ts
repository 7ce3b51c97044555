import crypto from 'node:crypto';
import { IMAGE_OPS, type ImageOp } from '../effects/image-op-names.js';
import { fetchPhoto, PHOTO_MAX_PIXELS } from '../effects/photo-input.js';
import type { UpscaleModel } from '../effects/upscale.js';
import type { ImageFormat } from '../effects/encode.js';
import { invalidParameter } from '../errors.js';
import { deliver } from './effect.js';
import type { AdapterKind } from './types.js';

/**
 * Manipulations of a client photo (blur, grayscale, circle crop, meme captions,
 * triggered GIF, upscaling ...): the photo comes from `url` through the SSRF guard (or a
 * data URL), the work runs in the shared render pool, identical requests run once.
 */
interface ImageConfig {
  /** A manipulation, or `upscale` (Lanczos or ESRGAN-slim, picked by the `model` param). */
  op: ImageOp | 'upscale';
  /** Param holding the photo URL (default url). */
  param?: string;
}

export const image: AdapterKind<ImageConfig> = {
  kind: 'image',
  cost: 'heavy',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['op'],
    properties: {
      op: { enum: [...IMAGE_OPS, 'upscale'], description: 'The manipulation' },
      param: { type: 'string', description: 'Param holding the photo URL (default url)' },
    },
  },
  async create(config, setup) {
    const param = config.param ?? 'url';
    // Skia, sharp and the worker pool load with the first image endpoint called, not at boot
    const [{ PHOTO_UNREADABLE }, { renderCache, renderPool }, { upscale }] = await Promise.all([
      import('../effects/render.js'),
      import('../effects/shared.js'),
      import('../effects/upscale.js'),
    ]);
    return async (call) => {
      const input = await fetchPhoto(setup, call, param);
      const { [param]: _url, stream: _stream, ...params } = call.params;
      const key = crypto.createHash('sha256').update(`${config.op}\0${JSON.stringify(params, Object.keys(params).sort())}\0`).update(input).digest('hex');
      const result = await renderCache()
        .get(key, () => (config.op === 'upscale'
          ? upscale(input, (params.model as UpscaleModel | undefined) ?? 'lanczos-2x', (params.format as ImageFormat | undefined) ?? 'png')
          : renderPool(setup.config.env).render({ op: config.op, params, input })))
        .catch((err: Error) => {
          throw err.message?.startsWith(PHOTO_UNREADABLE) ? invalidParameter(param, `not a supported image, or over ${PHOTO_MAX_PIXELS / 1e6} megapixels`) : err;
        });
      return deliver(setup, call, result, config.op);
    };
  },
};
