import { Piscina } from 'piscina';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { invalidParameter, overloaded } from '../errors.js';
import { CONTENT_TYPES, type ImageFormat } from './encode.js';
import { PHOTO_MAX_PIXELS } from './photo-input.js';
import { PHOTO_UNREADABLE, type RenderResult } from './render.js';
import { siblingModule } from '../root.js';
import { onShutdown } from '../shutdown.js';
import type { EsrganJob, EsrganResult } from './esrgan-worker.js';

/** Upscaling models a client may pick (the manifest's `model` enum). */
export const UPSCALE_MODELS = {
  'lanczos-2x': { scale: 2, neural: false },
  'lanczos-4x': { scale: 4, neural: false },
  'esrgan-slim-2x': { scale: 2, neural: true },
  'esrgan-slim-3x': { scale: 3, neural: true },
  'esrgan-slim-4x': { scale: 4, neural: true },
} as const;
export type UpscaleModel = keyof typeof UPSCALE_MODELS;

/** Largest output side. */
export const UPSCALE_MAX_SIDE = 4096;
/** Largest input for the neural models: CPU inference time grows with the pixel count. */
export const NEURAL_MAX_PIXELS = 256 * 256;

let pool: Piscina | undefined;
/** One thread for neural work: it is slow and memory-hungry, so it must not starve the renderers. */
function esrganPool(): Piscina {
  if (!pool) {
    pool = new Piscina({ filename: siblingModule(import.meta.url, 'esrgan-worker'), minThreads: 0, maxThreads: 1, maxQueue: 4, idleTimeout: 120_000 });
    onShutdown(closeUpscalePool);
  }
  return pool;
}

export async function closeUpscalePool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.destroy();
}

/** Not abortable on purpose: a result is shared by every identical request (render cache). */
export async function upscale(input: Uint8Array, model: UpscaleModel, format: ImageFormat): Promise<RenderResult> {
  const { scale, neural } = UPSCALE_MODELS[model];
  const src = sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS, animated: false }).rotate();
  let meta: Metadata;
  try {
    meta = await src.metadata();
  } catch {
    throw invalidParameter('url', `not a supported image, or over ${PHOTO_MAX_PIXELS / 1e6} megapixels`);
  }
  const w = meta.autoOrient?.width ?? meta.width!, h = meta.autoOrient?.height ?? meta.height!;
  if (Math.max(w, h) * scale > UPSCALE_MAX_SIDE) throw invalidParameter('url', `the image is ${w}×${h}; ${scale}× would exceed ${UPSCALE_MAX_SIDE} px`);
  if (neural && w * h > NEURAL_MAX_PIXELS) throw invalidParameter('url', `neural models take images up to ${NEURAL_MAX_PIXELS} pixels (this one is ${w}×${h}); use a lanczos model`);
  let out: Sharp;
  if (!neural) {
    out = src.resize(w * scale, h * scale, { kernel: 'lanczos3' });
  } else {
    const { data } = await src.removeAlpha().raw().toBuffer({ resolveWithObject: true }).catch((err: Error) => { throw new Error(`${PHOTO_UNREADABLE}: ${err.message}`); });
    const job: EsrganJob = { scale: scale as EsrganJob['scale'], rgb: data, width: w, height: h };
    let r: EsrganResult;
    try {
      r = await esrganPool().run(job);
    } catch (err) {
      if (err instanceof Error && /queue is at limit/i.test(err.message)) throw overloaded('The upscaler is busy');
      throw err;
    }
    out = sharp(Buffer.from(r.rgb.buffer, r.rgb.byteOffset, r.rgb.byteLength), { raw: { width: r.width, height: r.height, channels: 3 } });
  }
  const encoded = format === 'jpg' ? out.jpeg({ quality: 92 }) : format === 'webp' ? out.webp({ quality: 92 }) : out.png({ compressionLevel: 6 });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return { data, contentType: CONTENT_TYPES[format], format, width: info.width, height: info.height };
}
