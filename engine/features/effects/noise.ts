import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { rng } from './random.js';
import type { NoisePaint, Stops } from './template.generated.js';
import { tracked } from './surfaces.js';

/**
 * Procedural textures (clouds, smoke, lava veins, wood rings, marble, stone
 * cells, grain). Smooth modes are computed on a coarse grid and scaled up with
 * bilinear smoothing, which keeps a full-canvas texture to a few milliseconds.
 */

function lattice(seed: number) {
  const next = rng(seed);
  const perm = new Uint8Array(512);
  const values = new Float32Array(256);
  for (let i = 0; i < 256; i++) {
    perm[i] = i;
    values[i] = next();
  }
  for (let i = 255; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  for (let i = 0; i < 256; i++) perm[i + 256] = perm[i];
  return (x: number, y: number) => {
    const xi = Math.floor(x),
      yi = Math.floor(y);
    const xf = x - xi,
      yf = y - yi;
    const u = xf * xf * (3 - 2 * xf),
      v = yf * yf * (3 - 2 * yf);
    const X = xi & 255,
      Y = yi & 255;
    const a = values[perm[perm[X] + Y]],
      b = values[perm[perm[X + 1] + Y]];
    const c = values[perm[perm[X] + Y + 1]],
      d = values[perm[perm[X + 1] + Y + 1]];
    return a + (b - a) * u + (c - a) * v + (a - b - c + d) * u * v;
  };
}

/** 256-entry RGBA lookup table from colour stops. */
export function rampTable(stops: Stops): Uint8ClampedArray {
  const canvas = tracked(createCanvas(256, 1));
  const ctx = canvas.getContext('2d');
  const gradient = ctx.createLinearGradient(0, 0, 256, 0);
  for (const [offset, color] of stops) gradient.addColorStop(offset, color);
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, 256, 1);
  return ctx.getImageData(0, 0, 256, 1).data;
}

function cellNoise(seed: number) {
  const next = rng(seed);
  const jitter = new Float32Array(512);
  for (let i = 0; i < 512; i++) jitter[i] = next();
  return (x: number, y: number) => {
    const xi = Math.floor(x),
      yi = Math.floor(y);
    let best = 9;
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const h = (((xi + dx) * 73856093) ^ ((yi + dy) * 19349663)) & 255;
        const px = xi + dx + jitter[h * 2],
          py = yi + dy + jitter[h * 2 + 1];
        const d = (px - x) ** 2 + (py - y) ** 2;
        if (d < best) best = d;
      }
    return Math.min(1, Math.sqrt(best));
  };
}

/** Renders a noise texture of width×height pixels. */
export function noiseTexture(paint: NoisePaint, width: number, height: number): Canvas {
  const mode = paint.mode ?? 'fbm';
  const scale = paint.scale ?? 64;
  const stretch = paint.stretch ?? 1;
  const seed = paint.seed ?? 1;
  const octaves = paint.octaves ?? 4;
  // Grain is per pixel; smooth modes need ~6 samples per feature at most, and
  // every second pixel is plenty even for the finest (bilinear fills the rest).
  const step = mode === 'grain' ? 1 : Math.max(2, Math.min(8, Math.floor(scale / 6)));
  const gw = Math.max(2, Math.ceil(width / step) + 1),
    gh = Math.max(2, Math.ceil(height / step) + 1);
  const lut = rampTable(paint.stops);
  const noise = lattice(seed);
  const cells = mode === 'cells' ? cellNoise(seed) : undefined;
  const grain = mode === 'grain' ? rng(seed) : undefined;
  const fbm = (x: number, y: number, signed: boolean) => {
    let sum = 0,
      amp = 0.5,
      freq = 1,
      norm = 0;
    for (let o = 0; o < octaves; o++) {
      const n = noise(x * freq + o * 17.3, y * freq + o * 9.1);
      sum += amp * (signed ? Math.abs(n * 2 - 1) : n);
      norm += amp;
      amp *= 0.5;
      freq *= 2;
    }
    return sum / norm;
  };
  const small = tracked(createCanvas(gw, gh));
  const sctx = small.getContext('2d');
  const img = sctx.createImageData(gw, gh);
  const d = img.data;
  for (let j = 0; j < gh; j++) {
    for (let i = 0; i < gw; i++) {
      const x = (i * step) / scale / stretch,
        y = (j * step) / scale;
      let v: number;
      switch (mode) {
        case 'turbulence':
          v = fbm(x, y, true);
          break;
        case 'ridged': {
          const r = 1 - fbm(x, y, true);
          v = r * r;
          break;
        }
        case 'wood': {
          const r = y * 1.5 + fbm(x, y, false) * 3;
          v = r - Math.floor(r);
          break;
        }
        case 'marble':
          v = 0.5 + 0.5 * Math.sin(x * 4 + y * 2 + fbm(x, y, false) * 9);
          break;
        case 'cells':
          v = cells!(x, y) * 0.8 + fbm(x * 3, y * 3, false) * 0.2;
          break;
        case 'grain':
          v = grain!();
          break;
        default:
          v = fbm(x, y, false);
      }
      const k = Math.max(0, Math.min(255, Math.round(v * 255))) * 4;
      const p = (j * gw + i) * 4;
      d[p] = lut[k];
      d[p + 1] = lut[k + 1];
      d[p + 2] = lut[k + 2];
      d[p + 3] = lut[k + 3];
    }
  }
  sctx.putImageData(img, 0, 0);
  if (step === 1) return small;
  const out = tracked(createCanvas(width, height));
  const octx = out.getContext('2d');
  octx.imageSmoothingQuality = 'high';
  octx.drawImage(small, 0, 0, gw * step, gh * step);
  return out;
}
