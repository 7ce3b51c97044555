import { createCanvas } from '@napi-rs/canvas';
import sharp, { type FitEnum, type Metadata, type Sharp } from 'sharp';
import { decodePhoto, renderTemplate, type RenderResult } from './render.js';
import { drawTextLayer } from './text-layer.js';
import { registerFonts } from './fonts.js';
import { CONTENT_TYPES, type ImageFormat } from './encode.js';
import { PHOTO_MAX_PIXELS, photoUnreadable } from './photo-input.js';
import { rng } from './random.js';
import type { Template } from './template.generated.js';
import { tracked } from './surfaces.js';

/**
 * Manipulations of a client photo (the `image` adapter). sharp does the pixel
 * work; ops that draw text or frames use the template renderer. Every decode
 * is capped at PHOTO_MAX_PIXELS, every output side at MAX_SIDE.
 */
export const MAX_SIDE = 4096;

/** The manipulations by name, as the render worker receives them (each is one endpoint's handler: engine/kinds/handlers/effects/image-*.ts). */
export type ImageOp =
  'blur' | 'grayscale' | 'invert' | 'sepia' | 'pixelate' | 'circle' | 'rotate' | 'flip' | 'mirror' | 'resize' | 'adjust' | 'deepfry' | 'meme' | 'triggered';

export interface ImageJob {
  op: ImageOp;
  params: Record<string, unknown>;
  input: Uint8Array;
}

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

function load(input: Uint8Array): Sharp {
  return sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS, animated: false }).rotate();
}

async function encodeOut(img: Sharp, format: ImageFormat): Promise<RenderResult> {
  const out =
    format === 'jpg'
      ? img.flatten({ background: '#ffffff' }).jpeg({ quality: 88 })
      : format === 'webp'
        ? img.webp({ quality: 88, effort: 2 })
        : img.png({ compressionLevel: 6 });
  const { data, info } = await out.toBuffer({ resolveWithObject: true });
  return { data, contentType: CONTENT_TYPES[format], format, width: info.width, height: info.height };
}

/** Pixel filters expressible as one sharp pipeline. */
const PIPELINES: Partial<Record<ImageOp, (img: Sharp, p: Record<string, unknown>, meta: Metadata) => Sharp>> = {
  blur: (img, p) => img.blur(Math.max(0.3, num(p.radius, 6))),
  grayscale: (img) => img.grayscale(),
  invert: (img) => img.negate({ alpha: false }),
  sepia: (img) =>
    img.recomb([
      [0.393, 0.769, 0.189],
      [0.349, 0.686, 0.168],
      [0.272, 0.534, 0.131],
    ]),
  rotate: (img, p) => img.rotate(num(p.angle, 90), { background: { r: 0, g: 0, b: 0, alpha: 0 } }),
  flip: (img) => img.flip(),
  mirror: (img) => img.flop(),
  resize: (img, p, meta) =>
    img.resize({
      width: typeof p.width === 'number' ? p.width : undefined,
      height: typeof p.height === 'number' ? p.height : typeof p.width === 'number' ? undefined : meta.height,
      fit: (p.fit as keyof FitEnum) ?? 'inside',
      kernel: 'lanczos3',
    }),
  adjust: (img, p) => {
    const contrast = num(p.contrast, 1);
    return img.modulate({ brightness: num(p.brightness, 1), saturation: num(p.saturation, 1) }).linear(contrast, 128 * (1 - contrast));
  },
  deepfry: (img) => img.modulate({ saturation: 3, brightness: 1.1 }).linear(1.8, -90).sharpen({ sigma: 2, m1: 4, m2: 8 }),
};

export async function runImageOp(job: ImageJob): Promise<RenderResult> {
  try {
    return await dispatch(job);
  } catch (err) {
    const message = (err as Error).message ?? '';
    // sharp's decode failures are the client's photo, not a server fault.
    if (/unsupported image format|pixel limit|corrupt|Input buffer/i.test(message)) throw photoUnreadable(message);
    throw err;
  }
}

async function dispatch({ op, params, input }: ImageJob): Promise<RenderResult> {
  const format = (params.format as ImageFormat | undefined) ?? 'png';
  const meta = await load(input).metadata();
  const pipeline = PIPELINES[op];
  if (pipeline) {
    // Keep outputs within MAX_SIDE whatever the op (rotate and resize can grow them).
    const shaped = await pipeline(load(input), params, meta).toBuffer();
    return encodeOut(sharp(shaped).resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true }), format);
  }
  switch (op) {
    case 'pixelate': {
      const block = Math.max(2, Math.round(num(params.size, 12)));
      const w = meta.autoOrient?.width ?? meta.width!,
        h = meta.autoOrient?.height ?? meta.height!;
      const small = await load(input)
        .resize(Math.max(1, Math.round(w / block)), Math.max(1, Math.round(h / block)), { kernel: 'nearest' })
        .toBuffer();
      return encodeOut(sharp(small).resize(Math.min(w, MAX_SIDE), null, { kernel: 'nearest' }), format);
    }
    case 'circle': {
      const side = Math.min(1024, meta.width!, meta.height!);
      const mask = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><circle cx="${side / 2}" cy="${side / 2}" r="${side / 2}"/></svg>`,
      );
      return encodeOut(
        load(input)
          .resize(side, side, { fit: 'cover' })
          .ensureAlpha()
          .composite([{ input: mask, blend: 'dest-in' }]),
        format === 'jpg' ? 'png' : format,
      );
    }
    case 'meme':
      return meme(input, params, format);
    case 'triggered':
      return triggered(input);
    default:
      throw new Error(`unknown image op ${op}`);
  }
}

/** Classic meme: top and bottom captions in white condensed capitals with a black outline. */
async function meme(input: Uint8Array, params: Record<string, unknown>, format: ImageFormat): Promise<RenderResult> {
  const meta = await load(input).metadata();
  const w = meta.autoOrient?.width ?? meta.width!,
    h = meta.autoOrient?.height ?? meta.height!;
  const width = Math.min(1024, w),
    height = Math.max(64, Math.round((width * h) / w));
  const caption = (y: number, source: 'text1' | 'text2') => ({
    source,
    font: 'anton',
    transform: 'upper' as const,
    box: { x: 0.5, y, w: 0.94, h: 0.2 },
    maxSize: 140,
    fill: '#ffffff',
    outlines: [{ width: 0.06, paint: '#000000' }],
  });
  const template: Template = {
    slug: 'meme',
    name: 'Meme captions',
    site: 'photofunia',
    family: 'meme',
    description: 'Top and bottom captions over the photo.',
    input: 'image',
    canvas: { width, height },
    background: [{ type: 'image', fit: 'cover' }],
    text: [caption(0.12, 'text1'), caption(0.88, 'text2')],
  };
  return renderTemplate(template, { text1: String(params.top ?? ''), text2: String(params.bottom ?? ''), format }, input);
}

/** The "triggered" reaction GIF: the photo shaking under a red tint with a caption bar. */
async function triggered(input: Uint8Array): Promise<RenderResult> {
  registerFonts();
  const S = 256,
    bar = 48,
    frames = 8,
    next = rng(7);
  const photo = await decodePhoto(input, S + 40);
  const png: Buffer[] = [];
  for (let f = 0; f < frames; f++) {
    const c = tracked(createCanvas(S, S + bar)),
      g = c.getContext('2d');
    const k = Math.max((S + 24) / photo.width, (S + 24) / photo.height);
    g.drawImage(
      photo,
      -12 + (next() - 0.5) * 20 + (S + 24 - photo.width * k) / 2,
      -12 + (next() - 0.5) * 20 + (S + 24 - photo.height * k) / 2,
      photo.width * k,
      photo.height * k,
    );
    g.fillStyle = 'rgba(255,0,0,0.22)';
    g.fillRect(0, 0, S, S);
    g.fillStyle = '#000000';
    g.fillRect(0, S, S, bar);
    g.save();
    g.translate((next() - 0.5) * 6, (next() - 0.5) * 4);
    drawTextLayer(
      g,
      {
        content: 'TRIGGERED',
        font: 'anton',
        box: { x: 0.5, y: (S + bar / 2) / (S + bar), w: 0.9, h: (bar / (S + bar)) * 0.8 },
        fill: '#ff2020',
        outlines: [{ width: 0.03, paint: '#ffffff' }],
      },
      'TRIGGERED',
      S,
      S + bar,
      1,
    );
    g.restore();
    png.push(c.toBuffer('image/png'));
  }
  const data = await sharp(png, { join: { animated: true } })
    .gif({ delay: Array(frames).fill(40), loop: 0, effort: 3 })
    .toBuffer();
  return { data, contentType: 'image/gif', format: 'gif', width: S, height: S + bar };
}
