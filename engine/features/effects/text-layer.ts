import { createCanvas } from '@napi-rs/canvas';
import { fontCss } from './fonts.js';
import { glyphUnits } from './glyph-units.js';
import { boxRect } from './background.js';
import { isTexture, paintRect, toStyle, type Ctx, type Rect } from './paint.js';
import type { TextLayer } from './template.generated.js';
import { tracked } from './surfaces.js';

/**
 * Lays out and paints one text layer: fitted size, optional letter spacing and
 * curved baseline, then (bottom to top) shadows, glows, extrusion, outlines and
 * the letter faces (fill, bevel, overlays) with an optional reflection.
 */

interface Glyph {
  ch: string;
  x: number;
  y: number;
  angle: number;
}
interface Layout {
  text: string;
  size: number;
  /** Per-glyph placement when spacing or a curve rules out drawing the string at once. */
  glyphs?: Glyph[];
  width: number;
  /** Baseline y that centres the ink vertically on the origin. */
  baseline: number;
  bounds: Rect;
}

const REF = 100;
const rad = (deg: number) => (deg * Math.PI) / 180;

function layoutLine(g: Ctx, layer: TextLayer, text: string, box: Rect): Layout {
  g.font = fontCss(layer.font, REF);
  const spacing = (layer.letterSpacing ?? 0) * REF;
  const chars = glyphUnits(text);
  const perGlyph = spacing !== 0 || !!layer.curve;
  const advances = perGlyph ? chars.map((c) => g.measureText(c).width) : [];
  const full = g.measureText(text);
  const width = perGlyph ? advances.reduce((a, b) => a + b, 0) + spacing * (chars.length - 1) : full.width;
  const capH = g.measureText('H');
  const ascent = Math.max(full.actualBoundingBoxAscent, capH.actualBoundingBoxAscent);
  const descent = Math.max(full.actualBoundingBoxDescent, 0);
  const arc = rad(layer.curve ?? 0);
  const radius = arc ? width / Math.abs(arc) : 0;
  const sag = arc ? radius * (1 - Math.cos(Math.min(Math.abs(arc), Math.PI) / 2)) : 0;
  const chord = arc ? (Math.abs(arc) < Math.PI ? 2 * radius * Math.sin(Math.abs(arc) / 2) : 2 * radius) : width;
  // Decorations that stick out of the letters count towards the fit.
  const outline = Math.max(0, ...(layer.outlines ?? []).map((o) => o.width)) * 2 * REF;
  const depth = (layer.extrude?.depth ?? 0) * REF,
    ang = rad(layer.extrude?.angle ?? 45);
  const skew = Math.abs(Math.tan(rad(layer.skewX ?? 0))) * (ascent + descent);
  const needW = chord + outline + Math.abs(Math.cos(ang) * depth) + skew;
  const needH = ascent + descent + sag + outline + Math.abs(Math.sin(ang) * depth) + Math.abs(Math.tan(rad(layer.skewY ?? 0))) * chord;
  const size = Math.min(layer.maxSize ?? 400, (REF * box.w) / Math.max(needW, 1), (REF * box.h) / Math.max(needH, 1));
  const k = size / REF;
  const baseline = ((ascent - descent) / 2) * k;
  let glyphs: Glyph[] | undefined;
  if (perGlyph) {
    glyphs = [];
    let s = 0;
    const R = radius * k,
      sign = Math.sign(arc);
    chars.forEach((ch, i) => {
      const mid = (s + advances[i] / 2) * k - (width * k) / 2;
      s += advances[i] + spacing;
      if (!arc) {
        glyphs!.push({ ch, x: mid, y: baseline, angle: 0 });
        return;
      }
      const phi = mid / R;
      // Arch up: glyphs sit on a circle whose centre is below the text.
      const x = R * Math.sin(phi),
        y = sign * (R - R * Math.cos(phi)) - (sign * (sag * k)) / 2;
      glyphs!.push({ ch, x, y: y + baseline, angle: sign * phi });
    });
  }
  const w = chord * k,
    h = (ascent + descent + sag) * k;
  return { text, size, glyphs, width: width * k, baseline, bounds: { x: -w / 2, y: -h / 2, w, h } };
}

/** Lines of one text layer, all at one size, stacked around the origin. */
interface Block {
  lines: { layout: Layout; dy: number }[];
  size: number;
  bounds: Rect;
}

/** Splits words into n lines of about equal length. */
function balance(words: string[], n: number): string[] {
  const target = words.join(' ').length / n;
  const lines: string[] = [];
  let current: string[] = [];
  for (const [i, word] of words.entries()) {
    const left = words.length - i;
    if (current.length && lines.length < n - 1 && (current.join(' ').length + word.length / 2 > target || left < n - lines.length)) {
      lines.push(current.join(' '));
      current = [];
    }
    current.push(word);
  }
  lines.push(current.join(' '));
  return lines;
}

/**
 * Fits the text in its box on one line, or on two or three balanced lines when
 * that makes it clearly larger (a long name would otherwise shrink to a thread).
 * Curved text stays on one line.
 */
function layout(g: Ctx, layer: TextLayer, text: string, box: Rect): Block {
  const single = layoutLine(g, layer, text, box);
  let best: Block = { lines: [{ layout: single, dy: 0 }], size: single.size, bounds: single.bounds };
  const words = text.split(' ');
  if (layer.curve) return best;
  for (const n of [2, 3]) {
    if (words.length < n) break;
    const parts = balance(words, n);
    const size = Math.min(...parts.map((part) => layoutLine(g, layer, part, { ...box, h: box.h / n }).size));
    if (size <= best.size * 1.15) continue;
    const lines = parts.map((part) => layoutLine(g, { ...layer, maxSize: size }, part, box));
    const pitch = Math.min(box.h / n, size * 1.2);
    const w = Math.max(...lines.map((l) => l.bounds.w)),
      h = pitch * (n - 1) + Math.max(...lines.map((l) => l.bounds.h));
    best = { lines: lines.map((l, i) => ({ layout: l, dy: (i - (n - 1) / 2) * pitch })), size, bounds: { x: -w / 2, y: -h / 2, w, h } };
  }
  return best;
}

function trace(g: Ctx, block: Block, op: 'fill' | 'stroke', dx = 0, dy = 0): void {
  g.textAlign = 'center';
  for (const { layout: l, dy: ly } of block.lines) {
    if (!l.glyphs) {
      if (op === 'fill') g.fillText(l.text, dx, l.baseline + dy + ly);
      else g.strokeText(l.text, dx, l.baseline + dy + ly);
      continue;
    }
    for (const gl of l.glyphs) {
      g.save();
      g.translate(gl.x + dx, gl.y + dy + ly);
      if (gl.angle) g.rotate(gl.angle);
      if (op === 'fill') g.fillText(gl.ch, 0, 0);
      else g.strokeText(gl.ch, 0, 0);
      g.restore();
    }
  }
}

function mix(a: string, b: string, t: number): string {
  const p = (c: string) => {
    const h = c.replace('#', '');
    const f = h.length === 3 ? [...h].map((x) => x + x).join('') : h;
    return [0, 2, 4].map((i) => parseInt(f.slice(i, i + 2), 16));
  };
  const [x, y] = [p(a), p(b)];
  return `rgb(${x.map((v, i) => Math.round(v + (y[i] - v) * t)).join(',')})`;
}

/** Text of a layer for these params, or '' when the layer has nothing to draw. */
export function layerText(layer: TextLayer, params: Record<string, unknown>): string {
  const raw = layer.content ?? String(params[layer.source ?? 'text'] ?? '');
  const t = raw.replace(/\s+/g, ' ').trim();
  return layer.transform === 'upper' ? t.toUpperCase() : layer.transform === 'lower' ? t.toLowerCase() : t;
}

/**
 * Paints `layer` on g, whose transform maps template pixels to device pixels
 * by `scale` (shadow lengths are in device pixels, so they are scaled by hand).
 */
export function drawTextLayer(g: Ctx, layer: TextLayer, text: string, W: number, H: number, scale: number): void {
  if (!text) return;
  const box = boxRect(layer.box ?? { x: 0.5, y: 0.5, w: 0.88, h: 0.6 }, W, H);
  const l = layout(g, layer, text, box);
  const em = l.size;
  const shift = layer.align === 'left' ? -(box.w - l.bounds.w) / 2 : layer.align === 'right' ? (box.w - l.bounds.w) / 2 : 0;
  const place = (c: Ctx) => {
    c.translate(box.x + box.w / 2 + shift, box.y + box.h / 2);
    if (layer.rotate) c.rotate(rad(layer.rotate));
    if (layer.skewX || layer.skewY) c.transform(1, Math.tan(rad(layer.skewY ?? 0)), Math.tan(rad(layer.skewX ?? 0)), 1, 0, 0);
    c.font = fontCss(layer.font, em);
    c.lineJoin = 'round';
  };
  g.save();
  g.globalAlpha = layer.opacity ?? 1;
  if (layer.blend) g.globalCompositeOperation = layer.blend;
  place(g);
  const fillStyle = () => toStyle(g, layer.fill, l.bounds);

  for (const s of layer.shadows ?? []) {
    g.save();
    g.shadowColor = s.color;
    g.shadowBlur = (s.blur ?? 0) * em * scale;
    g.shadowOffsetX = (s.x ?? 0) * em * scale;
    g.shadowOffsetY = (s.y ?? 0) * em * scale;
    g.fillStyle = s.color;
    trace(g, l, 'fill');
    g.restore();
  }
  for (const glow of layer.glows ?? []) {
    g.save();
    g.shadowColor = glow.color;
    g.shadowBlur = glow.blur * em * scale;
    g.fillStyle = glow.color;
    g.strokeStyle = glow.color;
    if (glow.stroke) g.lineWidth = glow.stroke * em;
    for (let p = 0; p < (glow.passes ?? 1); p++) trace(g, l, glow.stroke ? 'stroke' : 'fill');
    g.restore();
  }
  if (layer.extrude) {
    const e = layer.extrude,
      depth = e.depth * em,
      a = rad(e.angle ?? 45);
    const steps = Math.max(2, Math.min(48, Math.ceil(depth * scale)));
    if (e.outline) {
      g.strokeStyle = e.outline;
      g.lineWidth = Math.max(1, em * 0.03);
      trace(g, l, 'stroke', Math.cos(a) * depth, Math.sin(a) * depth);
    }
    for (let i = steps; i >= 1; i--) {
      const d = (depth * i) / steps;
      g.fillStyle = e.to ? mix(e.from, e.to, i / steps) : e.from;
      trace(g, l, 'fill', Math.cos(a) * d, Math.sin(a) * d);
    }
  }
  for (const o of layer.outlines ?? []) {
    g.save();
    g.lineWidth = o.width * 2 * em;
    g.lineJoin = o.join ?? 'round';
    if (o.dash) g.setLineDash([o.dash[0] * em, o.dash[1] * em]);
    g.strokeStyle = toStyle(g, o.paint, l.bounds);
    trace(g, l, 'stroke');
    g.restore();
  }
  const plain = !layer.bevel && !layer.overlays?.length && !layer.reflection && !isTexture(layer.fill);
  if (plain) {
    g.fillStyle = fillStyle();
    trace(g, l, 'fill');
    g.restore();
    return;
  }
  // Faces go to their own layer so bevel/overlays stay inside the letters.
  const face = tracked(createCanvas(Math.ceil(W * scale), Math.ceil(H * scale)));
  const f = face.getContext('2d');
  f.scale(scale, scale);
  place(f);
  // Letters (and whatever sticks out of their measured bounds) get the fill.
  const around = { x: l.bounds.x - em, y: l.bounds.y - em, w: l.bounds.w + 2 * em, h: l.bounds.h + 2 * em };
  if (isTexture(layer.fill)) {
    f.fillStyle = '#000000';
    trace(f, l, 'fill');
    f.save();
    f.globalCompositeOperation = 'source-in';
    paintRect(f, layer.fill, l.bounds, around);
    f.restore();
  } else {
    f.fillStyle = toStyle(f, layer.fill, l.bounds);
    trace(f, l, 'fill');
  }
  if (layer.bevel) {
    const b = layer.bevel.size * em;
    f.save();
    f.globalCompositeOperation = 'source-atop';
    // An edge stroke shifted half its width: it lands inside the letters only on
    // the edges facing the light (light colour) or away from it (dark colour).
    f.lineWidth = b;
    for (const [color, d] of [
      [layer.bevel.light, b / 2],
      [layer.bevel.dark, -b / 2],
    ] as const) {
      f.strokeStyle = color;
      f.shadowColor = color;
      f.shadowBlur = (b * scale) / 2;
      trace(f, l, 'stroke', d, d);
    }
    f.restore();
  }
  for (const o of layer.overlays ?? []) {
    f.save();
    f.globalAlpha = o.opacity ?? 1;
    f.globalCompositeOperation = o.blend ?? 'source-atop';
    paintRect(f, o.paint, l.bounds, { ...around, h: (o.top !== undefined ? l.bounds.h * o.top : l.bounds.h) + em });
    f.restore();
  }
  if (layer.overlays?.some((o) => o.blend && o.blend !== 'source-atop')) {
    // A blended overlay also painted outside the letters: cut back to their shape.
    f.save();
    f.globalCompositeOperation = 'destination-in';
    f.fillStyle = '#000';
    trace(f, l, 'fill');
    f.restore();
  }
  g.restore();
  g.save();
  g.globalAlpha = layer.opacity ?? 1;
  if (layer.blend) g.globalCompositeOperation = layer.blend;
  g.setTransform(1, 0, 0, 1, 0, 0);
  if (layer.reflection) {
    const m = f.getTransform();
    const bottom = m.f + (l.bounds.y + l.bounds.h) * m.d + (layer.reflection.gap ?? 0.04) * em * scale;
    const mirror = tracked(createCanvas(face.width, face.height));
    const r = mirror.getContext('2d');
    r.translate(0, bottom * 2);
    r.scale(1, -1);
    r.drawImage(face, 0, 0);
    r.setTransform(1, 0, 0, 1, 0, 0);
    const fade = r.createLinearGradient(0, bottom, 0, bottom + l.bounds.h * scale);
    fade.addColorStop(0, `rgba(0,0,0,${1 - layer.reflection.opacity})`);
    fade.addColorStop(1, 'rgba(0,0,0,1)');
    r.globalCompositeOperation = 'destination-out';
    r.fillStyle = fade;
    r.fillRect(0, bottom, mirror.width, mirror.height - bottom);
    g.drawImage(mirror, 0, 0);
  }
  g.drawImage(face, 0, 0);
  g.restore();
}
