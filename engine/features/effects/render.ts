import { createCanvas, type Canvas } from '@napi-rs/canvas';
import sharp, { type OutputInfo } from 'sharp';
import { drawBackground } from './background.js';
import { applyFilters } from './filters.js';
import { encode, CONTENT_TYPES, type ImageFormat } from './encode.js';
import { registerFonts } from './fonts.js';
import { drawTextLayer, layerText } from './text-layer.js';
import { PHOTO_MAX_PIXELS, photoUnreadable } from './photo-input.js';
import type { Template } from './template.generated.js';
import { tracked } from './surfaces.js';

export interface RenderParams {
  text?: string;
  text1?: string;
  text2?: string;
  /** Output width in pixels; the height follows the template's aspect. */
  size?: number;
  format?: ImageFormat;
}

export interface RenderResult {
  data: Buffer;
  contentType: string;
  format: ImageFormat | 'gif';
  width: number;
  height: number;
}

/** Decodes a client photo, shrunk to what the canvas can show. */
export async function decodePhoto(bytes: Uint8Array, maxSide: number): Promise<Canvas> {
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(bytes, { limitInputPixels: PHOTO_MAX_PIXELS, animated: false })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    // the client's photo, not a server fault: typed, so the caller answers 400 naming its param
    throw photoUnreadable((err as Error).message);
  }
  const { data, info } = decoded;
  const canvas = tracked(createCanvas(info.width, info.height));
  const g = canvas.getContext('2d');
  const img = g.createImageData(info.width, info.height);
  img.data.set(data);
  g.putImageData(img, 0, 0);
  return canvas;
}

/** Draws a template for the given params and encodes it. Runs inside a pool worker. */
export async function renderTemplate(t: Template, params: RenderParams, photo?: Uint8Array): Promise<RenderResult> {
  registerFonts();
  const W = t.canvas.width,
    H = t.canvas.height;
  const scale = params.size ? params.size / W : 1;
  const width = Math.round(W * scale),
    height = Math.round(H * scale);
  const canvas = tracked(createCanvas(width, height));
  const g = canvas.getContext('2d');
  g.scale(scale, scale);
  const decoded = photo ? await decodePhoto(photo, Math.max(width, height)) : undefined;
  for (const layer of t.background) drawBackground(g, layer, W, H, decoded);
  for (const layer of t.text ?? []) drawTextLayer(g, layer, layerText(layer, params as Record<string, unknown>), W, H, scale);
  if (t.filters?.length) applyFilters(canvas, g, t.filters, scale);
  const format = params.format ?? t.format ?? 'png';
  const pixels = g.getImageData(0, 0, width, height).data;
  return { data: await encode(pixels, width, height, format), contentType: CONTENT_TYPES[format], format, width, height };
}
