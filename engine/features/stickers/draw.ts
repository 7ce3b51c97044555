import { createRequire } from 'node:module';
import { GlobalFonts, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { registerFonts } from '../effects/fonts.js';
import { graphemes } from '../effects/glyph-units.js';
import { FALLBACK_FAMILIES } from '../effects/script-fonts.js';

/**
 * Drawing pieces the quote sticker and the cards share: fonts (the effects' set plus
 * DejaVu Sans in its regular weight for body text), wrapped and fitted text, rounded
 * rectangles and round avatars.
 */
export type Ctx = SKRSContext2D;
export type Weight = 'normal' | 'bold';
export const BODY: Weight = 'normal';
export const BOLD: Weight = 'bold';
/**
 * A CSS font for the context: the fallback chain alone, so body text is Noto Sans where
 * installed (what Telegram's quote stickers use; it has no emoji of its own, which then
 * come in colour) and DejaVu Sans elsewhere (both weights registered under one family, so
 * Skia picks by weight).
 */
export const font = (weight: Weight, px: number) => `${weight} ${px}px ${FALLBACK_FAMILIES}`;

const require = createRequire(import.meta.url);
let bodyRegistered = false;

export function stickerFonts(): void {
  registerFonts();
  if (bodyRegistered) return;
  GlobalFonts.registerFromPath(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), 'DejaVu Sans');
  bodyRegistered = true;
}

/** Lines of `text` no wider than `width` at the context's font; words longer than a line are cut. */
export function wrap(g: Ctx, text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (g.measureText(candidate).width <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      // a word wider than the line goes over several, cut by grapheme
      while (g.measureText(line).width > width) {
        const chars = graphemes(line);
        let n = chars.length - 1;
        while (n > 1 && g.measureText(chars.slice(0, n).join('')).width > width) n--;
        lines.push(chars.slice(0, n).join(''));
        line = chars.slice(n).join('');
      }
    }
    lines.push(line);
  }
  return lines;
}

/** One line of text at the largest size up to `max` px that fits `width` (down to `min`, then cut with an ellipsis). */
export function fitLine(g: Ctx, text: string, weight: Weight, width: number, max: number, min = 12): { text: string; size: number } {
  let size = max;
  g.font = font(weight, size);
  while (size > min && g.measureText(text).width > width) g.font = font(weight, --size);
  if (g.measureText(text).width <= width) return { text, size };
  const chars = graphemes(text);
  while (chars.length > 1 && g.measureText(`${chars.join('')}…`).width > width) chars.pop();
  return { text: `${chars.join('')}…`, size };
}

export function roundRect(g: Ctx, x: number, y: number, w: number, h: number, r: number): void {
  g.beginPath();
  g.roundRect(x, y, w, h, Math.min(r, w / 2, h / 2));
}

/** A round avatar: the image cropped to a centred square, or the name's initials on its colour. */
export function avatar(g: Ctx, image: Canvas | undefined, cx: number, cy: number, r: number, name: string, color: string): void {
  g.save();
  g.beginPath();
  g.arc(cx, cy, r, 0, Math.PI * 2);
  g.closePath();
  g.clip();
  if (image) {
    const side = Math.min(image.width, image.height);
    g.drawImage(image, (image.width - side) / 2, (image.height - side) / 2, side, side, cx - r, cy - r, r * 2, r * 2);
  } else {
    g.fillStyle = color;
    g.fillRect(cx - r, cy - r, r * 2, r * 2);
    g.fillStyle = '#ffffff';
    g.font = font(BOLD, Math.round(r * 0.9));
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(initials(name), cx, cy + r * 0.05);
  }
  g.restore();
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => graphemes(w)[0]!.toUpperCase())
    .join('') || '?';

/** A stable, readable colour per name (as chat apps colour their members). */
export function nameColor(name: string): string {
  const palette = ['#e17076', '#7bc862', '#65aadd', '#a695e7', '#ee7aae', '#6ec9cb', '#faa774', '#e5ca77'];
  let h = 0;
  for (const c of name) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  return palette[h % palette.length]!;
}
