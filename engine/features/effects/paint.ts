import { createCanvas, DOMMatrix, type Canvas, type CanvasGradient, type CanvasPattern, type SKRSContext2D } from '@napi-rs/canvas';
import { noiseTexture } from './noise.js';
import type { NoisePaint, Paint, PatternPaint } from './template.generated.js';
import { LRUCache } from 'lru-cache';
import { kept, releaseSurface, tracked } from './surfaces.js';

export type Ctx = SKRSContext2D;
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
export type Style = string | CanvasGradient | CanvasPattern;

/**
 * Turns a template paint into a canvas fill/stroke style over `rect`
 * (gradient coordinates are fractions of it; textures are anchored to it).
 * For filling areas use paintRect/fillPath, which handle textures faster.
 */
export function toStyle(ctx: Ctx, paint: Paint, rect: Rect): Style {
  if (typeof paint === 'string') return paint;
  switch (paint.type) {
    case 'linear': {
      const a = ((paint.angle ?? 90) * Math.PI) / 180;
      const cx = rect.x + rect.w / 2,
        cy = rect.y + rect.h / 2;
      const half = (Math.abs(rect.w * Math.cos(a)) + Math.abs(rect.h * Math.sin(a))) / 2;
      const g = ctx.createLinearGradient(cx - Math.cos(a) * half, cy - Math.sin(a) * half, cx + Math.cos(a) * half, cy + Math.sin(a) * half);
      for (const [o, c] of paint.stops) g.addColorStop(o, c);
      return g;
    }
    case 'radial': {
      const cx = rect.x + rect.w * (paint.cx ?? 0.5),
        cy = rect.y + rect.h * (paint.cy ?? 0.5);
      const g = ctx.createRadialGradient(cx, cy, 0, cx, cy, Math.max(rect.w, rect.h) * (paint.r ?? 0.7));
      for (const [o, c] of paint.stops) g.addColorStop(o, c);
      return g;
    }
    case 'conic': {
      const g = ctx.createConicGradient(((paint.angle ?? 0) * Math.PI) / 180, rect.x + rect.w * (paint.cx ?? 0.5), rect.y + rect.h * (paint.cy ?? 0.5));
      for (const [o, c] of paint.stops) g.addColorStop(o, c);
      return g;
    }
    // Only strokes still get textures as styles (rare); fills go through paintRect.
    case 'pattern':
      return anchored(ctx.createPattern(patternTile(paint), 'repeat')!, rect);
    case 'noise':
      return anchored(ctx.createPattern(noiseTexture(paint, Math.ceil(rect.w), Math.ceil(rect.h)), 'repeat')!, rect);
  }
}

/** Patterns and noise are images: filled with drawImage, since a Skia pattern fill costs 10–15× the CPU of drawing the same pixels as an image (@napi-rs/canvas 1.0.11). */
export const isTexture = (paint: Paint): paint is PatternPaint | NoisePaint =>
  typeof paint !== 'string' && (paint.type === 'pattern' || paint.type === 'noise');

/**
 * Fills `area` (default: `rect`) with a paint whose coordinates are relative
 * to `rect`: gradients and colours as a fill style, textures as one image.
 */
export function paintRect(ctx: Ctx, paint: Paint, rect: Rect, area: Rect = rect): void {
  if (!isTexture(paint)) {
    ctx.fillStyle = toStyle(ctx, paint, rect);
    ctx.fillRect(area.x, area.y, area.w, area.h);
    return;
  }
  // Textures are made at device resolution (a half-size render computes a quarter of the pixels).
  const m = ctx.getTransform();
  const k = Math.min(1, Math.hypot(m.a, m.b));
  const w = Math.max(1, Math.ceil(area.w * k)),
    h = Math.max(1, Math.ceil(area.h * k));
  const texture =
    paint.type === 'noise'
      ? cached(paint, w, h, () => noiseTexture({ ...paint, scale: (paint.scale ?? 64) * k }, w, h))
      : cached(paint, w, h, () => tiled(paint, w, h, k));
  ctx.drawImage(texture, area.x, area.y, area.w, area.h);
}

/** Fills the current path with a paint (textures through a clip). */
export function fillPath(ctx: Ctx, paint: Paint, rect: Rect): void {
  if (!isTexture(paint)) {
    ctx.fillStyle = toStyle(ctx, paint, rect);
    ctx.fill();
    return;
  }
  ctx.save();
  ctx.clip();
  paintRect(ctx, paint, rect);
  ctx.restore();
}

/** A pattern repeated over w×h device pixels. */
function tiled(paint: PatternPaint, w: number, h: number, k: number): Canvas {
  const tile = patternTile(paint);
  const out = tracked(createCanvas(w, h));
  const g = out.getContext('2d');
  const tw = tile.width * k,
    th = tile.height * k;
  for (let y = 0; y < h; y += th) for (let x = 0; x < w; x += tw) g.drawImage(tile, x, y, tw, th);
  return out;
}

/**
 * Textures are the costliest part of many templates and depend only on the
 * paint and the size, so each worker keeps the most recent ones — bounded in bytes, as a
 * full-size texture is a 4 MiB surface (24 entries held up to ~100 MiB per worker). One
 * larger than half the bound is drawn and released with the render instead.
 */
const TEXTURE_CACHE_BYTES = 16 * 1024 * 1024;
const textureCache = new LRUCache<string, Canvas>({
  maxSize: TEXTURE_CACHE_BYTES,
  sizeCalculation: (c) => Math.max(1, c.width * c.height * 4),
  dispose: (c) => releaseSurface(c),
});
function cached(paint: Paint, w: number, h: number, make: () => Canvas): Canvas {
  const key = `${JSON.stringify(paint)}@${w}x${h}`;
  let texture = textureCache.get(key);
  if (!texture) {
    texture = make();
    if (w * h * 4 <= TEXTURE_CACHE_BYTES / 2) textureCache.set(key, kept(texture));
  }
  return texture;
}

function anchored(pattern: CanvasPattern, rect: Rect): CanvasPattern {
  pattern.setTransform(new DOMMatrix().translate(rect.x, rect.y));
  return pattern;
}

/** One repeating tile: colours[0] is the ground, the rest draw the motif. */
function patternTile(p: PatternPaint): Canvas {
  const s = p.size ?? 32;
  const tile = tracked(createCanvas(Math.ceil(s), Math.ceil(s)));
  const g = tile.getContext('2d');
  const [ground, ink, ink2 = ink, ink3 = ink2] = p.colors;
  const lw = (p.line ?? 0.25) * s;
  g.fillStyle = ground;
  g.fillRect(0, 0, s, s);
  g.fillStyle = ink;
  g.strokeStyle = ink;
  g.lineWidth = lw;
  switch (p.shape) {
    case 'stripes':
      g.fillRect(0, 0, s, s / 2);
      g.fillStyle = ink2;
      g.fillRect(0, s / 2, s, lw / 2);
      break;
    case 'diagonal':
      g.beginPath();
      for (const o of [-s, 0, s]) {
        g.moveTo(o, s);
        g.lineTo(o + s, 0);
      }
      g.lineWidth = s / 2.8;
      g.stroke();
      break;
    case 'dots':
      g.beginPath();
      g.arc(s / 2, s / 2, s * 0.22, 0, Math.PI * 2);
      g.fill();
      g.fillStyle = ink2;
      g.beginPath();
      g.arc(0, 0, s * 0.1, 0, Math.PI * 2);
      g.arc(s, s, s * 0.1, 0, Math.PI * 2);
      g.fill();
      break;
    case 'halftone':
      for (const [x, y, r] of [
        [s / 2, s / 2, 0.32],
        [0, 0, 0.18],
        [s, 0, 0.18],
        [0, s, 0.18],
        [s, s, 0.18],
      ]) {
        g.beginPath();
        g.arc(x, y, s * r, 0, Math.PI * 2);
        g.fill();
      }
      break;
    case 'checker':
      g.fillRect(0, 0, s / 2, s / 2);
      g.fillStyle = ink2;
      g.fillRect(s / 2, s / 2, s / 2, s / 2);
      break;
    case 'grid':
      g.lineWidth = Math.max(1, lw / 3);
      g.strokeRect(0, 0, s, s);
      break;
    case 'crosshatch':
      g.lineWidth = Math.max(1, lw / 3);
      g.beginPath();
      g.moveTo(0, 0);
      g.lineTo(s, s);
      g.moveTo(s, 0);
      g.lineTo(0, s);
      g.stroke();
      break;
    case 'bricks': {
      const m = Math.max(1, s / 16);
      g.fillStyle = ink2;
      g.fillRect(0, 0, s, s);
      g.fillStyle = ink;
      g.fillRect(m, m, s - 2 * m, s / 2 - 2 * m);
      g.fillStyle = ink3;
      g.fillRect(-s / 2 + m, s / 2 + m, s - 2 * m, s / 2 - 2 * m);
      g.fillRect(s / 2 + m, s / 2 + m, s - 2 * m, s / 2 - 2 * m);
      break;
    }
    case 'planks': {
      g.fillStyle = ink;
      g.fillRect(0, 0, s, s / 2 - 1);
      g.fillStyle = ink2;
      g.fillRect(0, s / 2, s, s / 2 - 1);
      g.fillStyle = ground;
      g.fillRect(s * 0.7, 0, 1.5, s / 2);
      g.fillRect(s * 0.2, s / 2, 1.5, s / 2);
      break;
    }
    case 'hex':
    case 'scales': {
      g.lineWidth = Math.max(1, lw / 3);
      const r = s / 2;
      const cells =
        p.shape === 'hex'
          ? [[r, r]]
          : [
              [r, 0],
              [0, r],
              [s, r],
              [r, s],
            ];
      for (const [x, y] of cells) {
        g.beginPath();
        if (p.shape === 'hex')
          for (let k = 0; k < 6; k++) {
            const a = (Math.PI / 3) * k;
            g.lineTo(x + r * 0.95 * Math.cos(a), y + r * 0.95 * Math.sin(a));
          }
        else g.arc(x, y, r * 0.95, 0, Math.PI);
        g.closePath();
        g.stroke();
      }
      break;
    }
    case 'zigzag':
    case 'waves': {
      g.lineWidth = Math.max(1, lw / 2);
      for (const y of [s * 0.25, s * 0.75]) {
        g.beginPath();
        g.moveTo(0, y);
        if (p.shape === 'zigzag') {
          g.lineTo(s / 4, y - s / 8);
          g.lineTo((3 * s) / 4, y + s / 8);
          g.lineTo(s, y);
        } else g.bezierCurveTo(s / 3, y - s / 5, (2 * s) / 3, y + s / 5, s, y);
        g.strokeStyle = y < s / 2 ? ink : ink2;
        g.stroke();
      }
      break;
    }
    case 'hearts':
    case 'stars':
    case 'diamonds': {
      g.translate(s / 2, s / 2);
      g.beginPath();
      if (p.shape === 'hearts') heartPath(g, s * 0.3);
      else if (p.shape === 'stars') starPath(g, 5, s * 0.3, s * 0.13);
      else {
        g.moveTo(0, -s * 0.4);
        g.lineTo(s * 0.25, 0);
        g.lineTo(0, s * 0.4);
        g.lineTo(-s * 0.25, 0);
        g.closePath();
      }
      g.fill();
      break;
    }
    case 'weave': {
      g.fillRect(0, 0, s / 2, s / 2 - 1);
      g.fillRect(s / 2, s / 2, s / 2, s / 2 - 1);
      g.fillStyle = ink2;
      g.fillRect(s / 2, 0, s / 2 - 1, s / 2);
      g.fillRect(0, s / 2, s / 2 - 1, s / 2);
      break;
    }
  }
  return tile;
}

export function starPath(g: Ctx, points: number, outer: number, inner: number): void {
  for (let k = 0; k < points * 2; k++) {
    const r = k % 2 === 0 ? outer : inner;
    const a = (Math.PI * k) / points - Math.PI / 2;
    g.lineTo(r * Math.cos(a), r * Math.sin(a));
  }
  g.closePath();
}

export function heartPath(g: Ctx, r: number): void {
  g.moveTo(0, r * 0.9);
  g.bezierCurveTo(-r * 1.6, -r * 0.2, -r * 0.6, -r * 1.3, 0, -r * 0.45);
  g.bezierCurveTo(r * 0.6, -r * 1.3, r * 1.6, -r * 0.2, 0, r * 0.9);
  g.closePath();
}
