import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BoundedPool } from '../../platform/workers/pool.js';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { invalidParameter, unavailable } from '../../core/errors.js';
import { CONTENT_TYPES, type ImageFormat } from './encode.js';
import { PHOTO_MAX_PIXELS, unreadablePhoto } from './photo-input.js';
import type { RenderResult } from './render.js';
import { siblingModule } from '../../core/root.js';
import type { Config } from '../../platform/config.js';
import type { EngineServices } from '../../contract/call.js';
import { MODELS_DIR, MODELS_INDEX, type EsrganNetwork } from './esrgan-models.js';
import type { EsrganJob, EsrganResult, EsrganWorkerData } from './esrgan-onnx-worker.js';

/** Upscaling models a client may pick (the manifest's `model` enum). */
export const UPSCALE_MODELS = {
  'lanczos-2x': { scale: 2 },
  'lanczos-4x': { scale: 4 },
  'esrgan-slim-2x': { scale: 2, network: 'esrgan-slim-x2' },
  'esrgan-slim-3x': { scale: 3, network: 'esrgan-slim-x3' },
  'esrgan-slim-4x': { scale: 4, network: 'esrgan-slim-x4' },
} satisfies Record<string, UpscaleModelSpec>;
interface UpscaleModelSpec {
  scale: number;
  /** The ESRGAN network it runs; Lanczos resampling when absent. */
  network?: EsrganNetwork;
}
export type UpscaleModel = keyof typeof UPSCALE_MODELS;

/** Largest output side. */
export const UPSCALE_MAX_SIDE = 4096;
/**
 * Largest result of the neural models, in pixels: 2048×2048, so inputs up to 1024×1024 at
 * 2×, 682×682 at 3× and 512×512 at 4×. The work grows with the result's pixels (the
 * networks' last layers run at the output size): this bounds a call to ~10 s on two quiet
 * cores, and memory does not grow with it (the image runs in tiles).
 */
export const NEURAL_MAX_OUTPUT_PIXELS = 2048 * 2048;

/** onnxruntime threads for one neural job: UPSCALE_THREADS, else the machine's cores up to 4 (more gains little on networks this small). */
export function neuralThreads(config?: Config): number {
  return config?.effects?.upscaleThreads ?? Math.min(4, os.availableParallelism());
}

/**
 * Wall-clock limit of one neural job once the worker runs it: the largest result (2048×2048)
 * takes ~10 s on two quiet cores; a loaded host stretches that several times.
 */
export const NEURAL_TASK_MS = 90_000;

/**
 * One neural job at a time per engine, on `neuralThreads` threads: it is slow and
 * memory-hungry, so it must not starve the renderers. The engine's one bounded pool
 * implementation (platform/workers/pool.ts), in a pool of its own so that the worker holding
 * the networks retires after WORKER_IDLE_MS and gives their memory back, however busy the
 * renderers are.
 */
function esrganPool({ config, scope }: EngineServices): BoundedPool {
  const workerData: EsrganWorkerData = { threads: neuralThreads(config), memory: config?.memory?.neural };
  return scope.own(
    'esrgan',
    () =>
      new BoundedPool({
        filename: siblingModule(import.meta.url, 'esrgan-onnx-worker'),
        name: 'The upscalers',
        threads: 1,
        queue: 4,
        taskMs: NEURAL_TASK_MS,
        // up to four jobs of ~1–10 s each may be ahead of this one
        queueWaitMs: 60_000,
        // onnxruntime's memory is native: the V8 heap holds the tiles only
        resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
        idleMs: config?.memory?.workerIdleMs,
        workerData,
      }),
    { close: (pool) => pool.close(), stats: (pool) => pool.stats },
  );
}

/** Stops the neural worker now (the engine's close does it too). */
export async function closeUpscalePool({ scope }: EngineServices): Promise<void> {
  await scope.release('esrgan');
}

/** A decoded client photo, upright, with its size. */
async function open(input: Uint8Array): Promise<{ src: Sharp; w: number; h: number }> {
  const src = sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS, animated: false }).rotate();
  let meta: Metadata;
  try {
    meta = await src.metadata();
  } catch {
    throw unreadablePhoto('url');
  }
  return { src, w: meta.autoOrient?.width ?? meta.width!, h: meta.autoOrient?.height ?? meta.height! };
}

/** The image through an ESRGAN model in the neural worker, as a sharp pipeline on the result. */
async function neural(src: Sharp, w: number, h: number, network: EsrganNetwork, services: EngineServices): Promise<Sharp> {
  // the networks are made by the build (scripts/models/build.ts); a checkout never built has none
  if (!fs.existsSync(path.join(MODELS_DIR, MODELS_INDEX))) throw unavailable('the ESRGAN networks are not built here (npm run models:build makes them)');
  const { data } = await src
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw unreadablePhoto('url');
    });
  const job: EsrganJob = { network, rgb: data, width: w, height: h };
  const r = await esrganPool(services).run<EsrganResult>(job);
  return sharp(Buffer.from(r.rgb.buffer, r.rgb.byteOffset, r.rgb.byteLength), { raw: { width: r.width, height: r.height, channels: 3 } });
}

async function encodeAs(out: Sharp, format: ImageFormat): Promise<RenderResult> {
  const encoded = format === 'jpg' ? out.jpeg({ quality: 92 }) : format === 'webp' ? out.webp({ quality: 92 }) : out.png({ compressionLevel: 6 });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return { data, contentType: CONTENT_TYPES[format], format, width: info.width, height: info.height };
}

/** Not abortable on purpose: a result is shared by every identical request (render cache). */
export async function upscale(input: Uint8Array, model: UpscaleModel, format: ImageFormat, services: EngineServices): Promise<RenderResult> {
  const { scale, network }: UpscaleModelSpec = UPSCALE_MODELS[model];
  const { src, w, h } = await open(input);
  if (Math.max(w, h) * scale > UPSCALE_MAX_SIDE) throw invalidParameter('url', `the image is ${w}×${h}; ${scale}× would exceed ${UPSCALE_MAX_SIDE} px`);
  if (network && w * scale * h * scale > NEURAL_MAX_OUTPUT_PIXELS)
    throw invalidParameter(
      'url',
      `neural models make results up to 2048×2048 pixels (this ${w}×${h} image would be ${w * scale}×${h * scale}); use a smaller image or a lanczos model`,
    );
  const out = network ? await neural(src, w, h, network, services) : src.resize(w * scale, h * scale, { kernel: 'lanczos3' });
  return encodeAs(out, format);
}

/** Input pixels the enhancer runs the network on by default (~1 s per 128×128 tile at ×4 on a quiet core). */
export const ENHANCE_INPUT_PIXELS = 256 * 256;

/**
 * Enhancement (remini-style): ESRGAN-medium ×4, then light unsharp masking. This
 * sharpens and adds resolution; it does not restore faces. A photo over
 * `maxPixels` is first reduced (Lanczos) to that pixel count, so the work is
 * bounded whatever the upload: the result is at most 4× that size.
 */
export async function enhance(
  input: Uint8Array,
  format: ImageFormat,
  maxPixels = ENHANCE_INPUT_PIXELS,
  services: EngineServices,
): Promise<RenderResult & { input: { width: number; height: number } }> {
  let { src, w, h } = await open(input);
  const original = { width: w, height: h };
  if (w * h > maxPixels) {
    const f = Math.sqrt(maxPixels / (w * h));
    [w, h] = [Math.max(1, Math.floor(w * f)), Math.max(1, Math.floor(h * f))];
    // materialised so the network sees exactly w×h (sharp's resize may round differently)
    const { data } = await src
      .resize(w, h, { kernel: 'lanczos3', fit: 'fill' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .catch(() => {
        throw unreadablePhoto('url');
      });
    src = sharp(data, { raw: { width: w, height: h, channels: 3 } });
  }
  const upscaled = await neural(src, w, h, 'esrgan-medium-x4', services);
  const result = await encodeAs(upscaled.sharpen({ sigma: 0.8, m1: 0.6, m2: 1.5 }), format);
  return { ...result, input: original };
}
