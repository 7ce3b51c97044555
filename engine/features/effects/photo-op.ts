import crypto from 'node:crypto';
import type { AdapterSetup, Call } from '../../contract/call.js';
import type { FileOutput } from '../../contract/file-output.js';
import { renderedFile } from './deliver.js';
import type { ImageOp } from './image-ops.js';
import { fetchPhoto, photoParamError } from './photo-input.js';
import type { RenderResult } from './render.js';
import type { ImageFormat } from './encode.js';
import type { UpscaleModel } from './upscale.js';

/**
 * The shared path of the photo manipulation endpoints (engine/kinds/handlers/effects/image-*.ts,
 * tools/imageupscaler.ts): the photo comes from `url` through the SSRF guard (or a data
 * URL), the work runs off the event loop, identical requests (same work, params and
 * photo) run once, and the picture is the call's file (deliver.ts renderedFile).
 */
async function manipulate(
  setup: AdapterSetup,
  call: Call,
  name: string,
  work: (input: Buffer, params: Record<string, unknown>) => Promise<RenderResult>,
): Promise<FileOutput> {
  // Skia, sharp and the worker pool load with the first image endpoint called, not at boot
  const { renderCache } = await import('./shared.js');
  const input = await fetchPhoto(setup, call, 'url');
  const { url: _url, stream: _stream, ...params } = call.params;
  const key = crypto
    .createHash('sha256')
    .update(`${name}\0${JSON.stringify(params, Object.keys(params).sort())}\0`)
    .update(input)
    .digest('hex');
  const result = await renderCache(setup)
    .get(key, () => work(input, params))
    .catch((err: unknown) => {
      throw photoParamError(err);
    });
  return renderedFile(result, name);
}

/** One manipulation of engine/features/effects/image-ops.ts, in the shared render pool. */
export function photoOp(setup: AdapterSetup, call: Call, op: ImageOp): Promise<FileOutput> {
  return manipulate(setup, call, op, async (input, params) => {
    const { renderPool } = await import('./shared.js');
    return renderPool(setup).render({ op, params, input });
  });
}

/** Upscaling (Lanczos or ESRGAN-slim, picked by the `model` param) in the neural worker. */
export function photoUpscale(setup: AdapterSetup, call: Call): Promise<FileOutput> {
  return manipulate(setup, call, 'upscale', async (input, params) => {
    const { upscale } = await import('./upscale.js');
    return upscale(input, (params.model as UpscaleModel | undefined) ?? 'lanczos-2x', (params.format as ImageFormat | undefined) ?? 'png', setup);
  });
}
