import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { drawTextLayer } from '../effects/text-layer.js';
import { registerFonts } from '../effects/fonts.js';
import { CONTENT_TYPES, encode, type ImageFormat } from '../effects/encode.js';
import type { RenderResult } from '../effects/render.js';
import type { TextLayer } from '../effects/template.generated.js';
import { tracked } from '../effects/surfaces.js';

/**
 * Text stickers: `ttp` (one frame) and `attp` (animated, the text cycling through
 * colours), square with a transparent background, the size WhatsApp and Telegram
 * take stickers at. The text is laid out by the effects' text layer (fitted, on up to
 * three balanced lines) with a dark outline so it reads on light and dark chats.
 */
export const STICKER_SIDE = 512;
/** attp: one frame per hue step, looping. */
export const ATTP_FRAMES = 12;
const FRAME_MS = 90;

const layer = (fill: string, font: string): TextLayer => ({
  font,
  box: { x: 0.5, y: 0.5, w: 0.9, h: 0.9 },
  maxSize: 220,
  fill,
  outlines: [{ width: 0.06, paint: '#000000' }],
});

function frame(text: string, fill: string, font: string, side: number): Buffer {
  registerFonts();
  const canvas = tracked(createCanvas(side, side));
  drawTextLayer(canvas.getContext('2d'), layer(fill, font), text, side, side, 1);
  return Buffer.from(canvas.data().buffer);
}

const hue = (i: number) => `hsl(${Math.round((360 * i) / ATTP_FRAMES)}, 100%, 55%)`;

export async function renderTtp(p: { text: string; color: string; font: string; format: ImageFormat; size: number }): Promise<RenderResult> {
  const data = await encode(frame(p.text, p.color, p.font, p.size), p.size, p.size, p.format);
  return { data, contentType: CONTENT_TYPES[p.format], format: p.format, width: p.size, height: p.size };
}

/** Frames stacked vertically become one animated WebP or GIF (sharp's pageHeight). */
export async function renderAttp(p: { text: string; font: string; format: 'webp' | 'gif'; size: number }): Promise<RenderResult> {
  const frames = Array.from({ length: ATTP_FRAMES }, (_, i) => frame(p.text, hue(i), p.font, p.size));
  const img = sharp(Buffer.concat(frames), { raw: { width: p.size, height: p.size * ATTP_FRAMES, channels: 4, pageHeight: p.size } });
  const delay = Array(ATTP_FRAMES).fill(FRAME_MS);
  const data = await (p.format === 'gif' ? img.gif({ loop: 0, delay }) : img.webp({ loop: 0, delay, quality: 80, effort: 2 })).toBuffer();
  return { data, contentType: p.format === 'gif' ? 'image/gif' : 'image/webp', format: p.format === 'gif' ? 'gif' : 'webp', width: p.size, height: p.size };
}
