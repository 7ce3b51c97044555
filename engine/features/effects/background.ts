import type { Canvas, Image } from '@napi-rs/canvas';
import { fillPath, heartPath, isTexture, paintRect, starPath, toStyle, type Ctx, type Rect } from './paint.js';
import { rng } from './random.js';
import type { BackgroundLayer, ImageLayer, ParticlesLayer, ShapeLayer, Box } from './template.generated.js';

/** The client's photo, already decoded and size-limited. */
export type Photo = Canvas | Image;

export const boxRect = (b: Box, W: number, H: number): Rect => ({ x: (b.x - b.w / 2) * W, y: (b.y - b.h / 2) * H, w: b.w * W, h: b.h * H });

/** Paints one background layer over the whole W×H canvas. */
export function drawBackground(g: Ctx, layer: BackgroundLayer, W: number, H: number, photo?: Photo): void {
  g.save();
  g.globalAlpha = layer.opacity ?? 1;
  g.globalCompositeOperation = layer.blend ?? 'source-over';
  const full = { x: 0, y: 0, w: W, h: H };
  switch (layer.type) {
    case 'fill':
      paintRect(g, layer.paint, full);
      break;
    case 'particles':
      particles(g, layer, W, H);
      break;
    case 'rays': {
      const cx = W * (layer.cx ?? 0.5),
        cy = H * (layer.cy ?? 0.5),
        R = Math.hypot(W, H);
      const step = (Math.PI * 2) / layer.count,
        spin = ((layer.spin ?? 0) * Math.PI) / 180;
      for (let k = 0; k < layer.count; k++) {
        g.beginPath();
        g.moveTo(cx, cy);
        g.arc(cx, cy, R, spin + k * step, spin + (k + 1) * step);
        g.fillStyle = layer.colors[k % layer.colors.length];
        g.fill();
      }
      break;
    }
    case 'grid': {
      g.strokeStyle = layer.color;
      g.lineWidth = layer.width ?? 2;
      if (layer.glow) {
        g.shadowColor = layer.color;
        g.shadowBlur = layer.glow;
      }
      g.beginPath();
      if (layer.horizon === undefined) {
        for (let x = 0; x <= W; x += layer.spacing) {
          g.moveTo(x, 0);
          g.lineTo(x, H);
        }
        for (let y = 0; y <= H; y += layer.spacing) {
          g.moveTo(0, y);
          g.lineTo(W, y);
        }
      } else {
        const hy = H * layer.horizon;
        for (let x = -W * 2; x <= W * 3; x += layer.spacing * 2) {
          g.moveTo(W / 2, hy);
          g.lineTo(x, H);
        }
        // Horizontal lines closer together near the horizon, as in perspective.
        for (let k = 1; k < 14; k++) {
          const y = hy + (H - hy) * (k / 13) ** 2;
          g.moveTo(0, y);
          g.lineTo(W, y);
        }
      }
      g.stroke();
      break;
    }
    case 'shape':
      shape(g, layer, W, H);
      break;
    case 'code-rain': {
      const next = rng(layer.seed ?? 7),
        col = W / layer.columns,
        glyphs = '01アカサタナ23ハマヤラワ456789ABCDEF<>{}';
      g.font = `${Math.round(col * 0.9)}px "DejaVu Sans Mono"`;
      g.textAlign = 'center';
      for (let c = 0; c < layer.columns; c++) {
        const len = 4 + Math.floor(next() * 14),
          start = next() * H * 1.2 - H * 0.2;
        for (let k = 0; k < len; k++) {
          const y = start + k * col;
          g.globalAlpha = (layer.opacity ?? 1) * (0.15 + 0.85 * (k / len));
          g.fillStyle = k === len - 1 ? (layer.head ?? '#ffffff') : layer.color;
          g.fillText(glyphs[Math.floor(next() * glyphs.length)], c * col + col / 2, y);
        }
      }
      break;
    }
    case 'bolts': {
      const next = rng(layer.seed ?? 3);
      g.strokeStyle = layer.color;
      g.lineWidth = layer.width ?? 3;
      g.lineJoin = 'miter';
      g.shadowColor = layer.glow ?? layer.color;
      g.shadowBlur = 18;
      for (let b = 0; b < layer.count; b++) {
        let x = W * (0.1 + 0.8 * next()),
          y = 0;
        g.beginPath();
        g.moveTo(x, y);
        while (y < H) {
          x += (next() - 0.5) * W * 0.08;
          y += H * (0.04 + next() * 0.08);
          g.lineTo(x, y);
        }
        g.stroke();
      }
      break;
    }
    case 'waves': {
      const next = rng(layer.seed ?? 5),
        from = H * (layer.from ?? 0.5),
        to = H * (layer.to ?? 1);
      for (let k = 0; k < layer.count; k++) {
        const base = from + ((to - from) * k) / layer.count,
          phase = next() * Math.PI * 2,
          freq = 1.5 + next() * 2;
        g.beginPath();
        g.moveTo(0, H);
        for (let x = 0; x <= W; x += 16) g.lineTo(x, base + Math.sin((x / W) * Math.PI * 2 * freq + phase) * layer.amplitude);
        g.lineTo(W, H);
        g.closePath();
        g.fillStyle = layer.colors[k % layer.colors.length];
        g.fill();
      }
      break;
    }
    case 'image':
      if (photo) drawPhoto(g, layer, photo, W, H);
      break;
  }
  g.restore();
}

function particles(g: Ctx, p: ParticlesLayer, W: number, H: number): void {
  const next = rng(p.seed ?? 11);
  const [y0, y1] = p.band ?? [0, 1];
  if (p.glow) g.shadowBlur = p.glow;
  for (let k = 0; k < p.count; k++) {
    const x = next() * W,
      y = (y0 + next() * (y1 - y0)) * H;
    const r = p.size[0] + next() * (p.size[1] - p.size[0]);
    const color = p.colors[Math.floor(next() * p.colors.length)];
    g.fillStyle = color;
    g.strokeStyle = color;
    g.shadowColor = color;
    g.save();
    g.translate(x, y);
    g.rotate(next() * Math.PI * 2);
    g.beginPath();
    switch (p.shape) {
      case 'star':
        starPath(g, 5, r, r * 0.45);
        g.fill();
        break;
      case 'sparkle':
        starPath(g, 4, r, r * 0.18);
        g.fill();
        break;
      case 'heart':
        heartPath(g, r);
        g.fill();
        break;
      case 'square':
        g.rect(-r, -r, 2 * r, 2 * r);
        g.fill();
        break;
      case 'confetti':
        g.rect(-r, -r / 3, 2 * r, (2 * r) / 3);
        g.fill();
        break;
      case 'bokeh':
        g.globalAlpha *= 0.25 + next() * 0.35;
        g.arc(0, 0, r, 0, Math.PI * 2);
        g.fill();
        break;
      case 'bubble':
        g.lineWidth = Math.max(1, r / 8);
        g.arc(0, 0, r, 0, Math.PI * 2);
        g.stroke();
        break;
      case 'drop':
        g.moveTo(0, -r * 1.6);
        g.quadraticCurveTo(r, 0, 0, r);
        g.quadraticCurveTo(-r, 0, 0, -r * 1.6);
        g.fill();
        break;
      case 'snow':
        g.globalAlpha *= 0.5 + next() * 0.5;
        g.arc(0, 0, r, 0, Math.PI * 2);
        g.fill();
        break;
      default:
        g.arc(0, 0, r, 0, Math.PI * 2);
        g.fill();
    }
    g.restore();
  }
}

/** Traces a shape centred on the origin with half-sizes w/h. */
export function shapePath(g: Ctx, kind: ShapeLayer['shape'], w: number, h: number): void {
  g.beginPath();
  switch (kind) {
    case 'circle':
      g.arc(0, 0, Math.min(w, h), 0, Math.PI * 2);
      break;
    case 'ellipse':
      g.ellipse(0, 0, w, h, 0, 0, Math.PI * 2);
      break;
    case 'rect':
      g.rect(-w, -h, 2 * w, 2 * h);
      break;
    case 'rounded':
      g.roundRect(-w, -h, 2 * w, 2 * h, Math.min(w, h) * 0.35);
      break;
    case 'shield':
      g.moveTo(-w, -h);
      g.lineTo(w, -h);
      g.lineTo(w, 0);
      g.quadraticCurveTo(w, h * 0.6, 0, h);
      g.quadraticCurveTo(-w, h * 0.6, -w, 0);
      g.closePath();
      break;
    case 'hexagon':
      for (let k = 0; k < 6; k++) {
        const a = (Math.PI / 3) * k;
        g.lineTo(w * Math.cos(a), h * Math.sin(a));
      }
      g.closePath();
      break;
    case 'star':
      starPath(g, 5, 1, 0.45);
      break;
    case 'burst':
      starPath(g, 16, 1, 0.8);
      break;
    case 'ribbon':
      g.moveTo(-w, -h);
      g.lineTo(w, -h);
      g.lineTo(w * 0.9, 0);
      g.lineTo(w, h);
      g.lineTo(-w, h);
      g.lineTo(-w * 0.9, 0);
      g.closePath();
      break;
    case 'heart':
      heartPath(g, 1);
      break;
    case 'diamond':
      g.moveTo(0, -h);
      g.lineTo(w, 0);
      g.lineTo(0, h);
      g.lineTo(-w, 0);
      g.closePath();
      break;
    case 'triangle':
      g.moveTo(0, -h);
      g.lineTo(w, h);
      g.lineTo(-w, h);
      g.closePath();
      break;
  }
}

function shape(g: Ctx, s: ShapeLayer, W: number, H: number): void {
  const r = boxRect(s.box, W, H);
  g.translate(r.x + r.w / 2, r.y + r.h / 2);
  g.rotate(((s.rotate ?? 0) * Math.PI) / 180);
  // Unit-sized outlines (star, burst, heart) are scaled to the box instead.
  const unit = s.shape === 'star' || s.shape === 'burst' || s.shape === 'heart';
  if (unit) g.scale(r.w / 2, r.h / 2);
  shapePath(g, s.shape, unit ? 1 : r.w / 2, unit ? 1 : r.h / 2);
  const local = unit ? { x: -1, y: -1, w: 2, h: 2 } : { x: -r.w / 2, y: -r.h / 2, w: r.w, h: r.h };
  if (s.shadow) {
    g.shadowColor = s.shadow.color;
    g.shadowBlur = s.shadow.blur;
    g.shadowOffsetX = s.shadow.x;
    g.shadowOffsetY = s.shadow.y;
    // A texture is drawn through a clip, which would cut its shadow off: cast it with a solid fill first.
    if (s.fill && isTexture(s.fill)) {
      g.fillStyle = '#000000';
      g.fill();
    }
  }
  if (s.fill && !(s.shadow && isTexture(s.fill))) fillPath(g, s.fill, local);
  g.shadowColor = 'transparent';
  if (s.fill && s.shadow && isTexture(s.fill)) fillPath(g, s.fill, local);
  if (s.stroke) {
    g.lineWidth = unit ? s.stroke.width / (r.w / 2) : s.stroke.width;
    g.strokeStyle = toStyle(g, s.stroke.paint, local);
    g.stroke();
  }
}

function drawPhoto(g: Ctx, layer: ImageLayer, photo: Photo, W: number, H: number): void {
  const r = layer.box ? boxRect(layer.box, W, H) : { x: 0, y: 0, w: W, h: H };
  g.translate(r.x + r.w / 2, r.y + r.h / 2);
  g.rotate(((layer.rotate ?? 0) * Math.PI) / 180);
  const f = layer.frame;
  if (f) {
    if (layer.shadow) {
      g.shadowColor = layer.shadow.color;
      g.shadowBlur = layer.shadow.blur;
      g.shadowOffsetX = layer.shadow.x;
      g.shadowOffsetY = layer.shadow.y;
    }
    const fr = { x: -r.w / 2 - f.width, y: -r.h / 2 - f.width, w: r.w + 2 * f.width, h: r.h + f.width + (f.bottom ?? f.width) };
    paintRect(g, f.paint, fr);
    g.shadowColor = 'transparent';
  }
  g.beginPath();
  g.roundRect(-r.w / 2, -r.h / 2, r.w, r.h, layer.radius ?? 0);
  g.clip();
  const pw = photo.width,
    ph = photo.height;
  const k = (layer.fit ?? 'cover') === 'cover' ? Math.max(r.w / pw, r.h / ph) : Math.min(r.w / pw, r.h / ph);
  if (layer.filter) g.filter = layer.filter;
  g.drawImage(photo, (-pw * k) / 2, (-ph * k) / 2, pw * k, ph * k);
}
