import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { rng } from './random.js';
import type { Filter } from './template.generated.js';
import type { Ctx } from './paint.js';
import { tracked } from './surfaces.js';

/**
 * Post filters over the finished device-size image. Pixel filters work on one
 * ImageData read; lengths are template pixels multiplied by `scale`.
 */
export function applyFilters(canvas: Canvas, g: Ctx, filters: Filter[], scale: number): void {
  const W = canvas.width,
    H = canvas.height;
  for (const f of filters) {
    g.save();
    g.setTransform(1, 0, 0, 1, 0, 0);
    switch (f.type) {
      case 'blur':
      case 'css': {
        const copy = snapshot(canvas);
        g.filter = f.type === 'blur' ? `blur(${f.radius * scale}px)` : f.filter;
        g.clearRect(0, 0, W, H);
        g.drawImage(copy, 0, 0);
        break;
      }
      case 'bloom': {
        const copy = snapshot(canvas);
        g.filter = `blur(${f.radius * scale}px) brightness(1.4)`;
        g.globalCompositeOperation = 'screen';
        g.globalAlpha = f.strength;
        g.drawImage(copy, 0, 0);
        break;
      }
      case 'vignette': {
        const v = g.createRadialGradient(W / 2, H / 2, Math.min(W, H) * 0.3, W / 2, H / 2, Math.hypot(W, H) / 2);
        const c = f.color ?? '#000000';
        v.addColorStop(0, hexAlpha(c, 0));
        v.addColorStop(1, hexAlpha(c, f.strength));
        g.fillStyle = v;
        g.fillRect(0, 0, W, H);
        break;
      }
      case 'scanlines': {
        g.fillStyle = `rgba(0,0,0,${f.opacity})`;
        const step = Math.max(2, f.spacing * scale);
        for (let y = 0; y < H; y += step) g.fillRect(0, y, W, step / 2);
        break;
      }
      case 'pixelate': {
        const s = Math.max(2, Math.round(f.size * scale));
        const small = tracked(createCanvas(Math.ceil(W / s), Math.ceil(H / s)));
        small.getContext('2d').drawImage(canvas, 0, 0, small.width, small.height);
        g.imageSmoothingEnabled = false;
        g.clearRect(0, 0, W, H);
        g.drawImage(small, 0, 0, small.width * s, small.height * s);
        break;
      }
      default:
        pixels(g, W, H, f, scale);
    }
    g.restore();
  }
}

function snapshot(canvas: Canvas): Canvas {
  const copy = tracked(createCanvas(canvas.width, canvas.height));
  copy.getContext('2d').drawImage(canvas, 0, 0);
  return copy;
}

function hexAlpha(color: string, alpha: number): string {
  const h = color.replace('#', '');
  const f = h.length === 3 ? [...h].map((x) => x + x).join('') : h.slice(0, 6);
  return `rgba(${[0, 2, 4].map((i) => parseInt(f.slice(i, i + 2), 16)).join(',')},${alpha})`;
}

function pixels(g: Ctx, W: number, H: number, f: Filter, scale: number): void {
  const img = g.getImageData(0, 0, W, H);
  const d = img.data;
  if (f.type === 'noise') {
    const next = rng(f.seed ?? 17),
      amt = f.amount * 255;
    for (let i = 0; i < d.length; i += 4) {
      const n = (next() - 0.5) * amt;
      if (f.mono !== false) {
        d[i] += n;
        d[i + 1] += n;
        d[i + 2] += n;
      } else {
        d[i] += n;
        d[i + 1] += (next() - 0.5) * amt;
        d[i + 2] += (next() - 0.5) * amt;
      }
    }
  } else if (f.type === 'matrix') {
    const m = f.matrix;
    for (let i = 0; i < d.length; i += 4) {
      const r = d[i],
        gg = d[i + 1],
        b = d[i + 2],
        a = d[i + 3];
      d[i] = m[0] * r + m[1] * gg + m[2] * b + m[3] * a + m[4];
      d[i + 1] = m[5] * r + m[6] * gg + m[7] * b + m[8] * a + m[9];
      d[i + 2] = m[10] * r + m[11] * gg + m[12] * b + m[13] * a + m[14];
      d[i + 3] = m[15] * r + m[16] * gg + m[17] * b + m[18] * a + m[19];
    }
  } else if (f.type === 'glitch') {
    const src = new Uint8ClampedArray(d);
    const shift = Math.round((f.shift ?? 0) * scale);
    if (shift) {
      // Red channel left, blue right: the RGB-split look.
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          const i = (y * W + x) * 4;
          d[i] = src[(y * W + Math.min(W - 1, x + shift)) * 4];
          d[i + 2] = src[(y * W + Math.max(0, x - shift)) * 4 + 2];
        }
    }
    const next = rng(f.seed ?? 23),
      shifted = new Uint8ClampedArray(d);
    for (let s = 0; s < f.slices; s++) {
      const y0 = Math.floor(next() * H),
        h = Math.max(1, Math.floor(next() * H * 0.06)),
        dx = Math.round((next() - 0.5) * 2 * f.offset * scale);
      for (let y = y0; y < Math.min(H, y0 + h); y++)
        for (let x = 0; x < W; x++) {
          const sx = Math.min(W - 1, Math.max(0, x - dx)),
            i = (y * W + x) * 4,
            j = (y * W + sx) * 4;
          d[i] = shifted[j];
          d[i + 1] = shifted[j + 1];
          d[i + 2] = shifted[j + 2];
          d[i + 3] = shifted[j + 3];
        }
    }
  }
  g.putImageData(img, 0, 0);
}
