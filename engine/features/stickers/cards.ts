import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { CONTENT_TYPES, encode, type ImageFormat } from '../effects/encode.js';
import type { RenderResult } from '../effects/render.js';
import { avatar, BODY, BOLD, font, fitLine, nameColor, roundRect, stickerFonts, type Ctx } from './draw.js';
import { playerClock } from '../../core/player-clock.js';
import { invalidParameter } from '../../core/errors.js';
import { tracked } from '../effects/surfaces.js';

/**
 * Cards bots post: a Spotify-style "now playing" card, a member welcome (or goodbye)
 * banner and a level/rank card. `title` is the song or the member, `text` the artist or
 * the line under the name; the image (cover or avatar) is optional.
 */
export const CARD_TYPES = ['spotify', 'welcome', 'goodbye', 'rank'] as const;
export type CardType = (typeof CARD_TYPES)[number];
export const CARD_SIZES: Record<CardType, [number, number]> = { spotify: [800, 300], welcome: [1024, 450], goodbye: [1024, 450], rank: [934, 282] };

export interface CardParams {
  type: CardType;
  title: string;
  text?: string;
  color?: string;
  format: ImageFormat;
  /** spotify: seconds played and length. */
  position?: number;
  duration?: number;
  /** rank */
  level?: number;
  rank?: number;
  xp?: number;
  maxxp?: number;
}

/** A picture scaled to cover the rectangle, centred. */
function cover(g: Ctx, image: Canvas, x: number, y: number, w: number, h: number): void {
  const k = Math.max(w / image.width, h / image.height);
  const sw = w / k,
    sh = h / k;
  g.drawImage(image, (image.width - sw) / 2, (image.height - sh) / 2, sw, sh, x, y, w, h);
}

/**
 * The client's accent colour as the canvas reads CSS colours, or the card's own. The
 * manifest's pattern lets any word through as a colour name; the canvas ignores a
 * fillStyle it cannot parse (and a gradient stop throws), so a name it does not know is
 * found by assigning it after a sentinel and seeing the sentinel stay: a 400 naming `color`,
 * not a failed draw (the ApiError crosses the render pool's thread with its code).
 */
function accentOf(g: Ctx, color: string | undefined, fallback: string): string {
  if (color === undefined) return fallback;
  const SENTINEL = '#010203';
  const before = g.fillStyle;
  g.fillStyle = SENTINEL;
  g.fillStyle = color;
  const known = g.fillStyle !== SENTINEL || color.toLowerCase() === SENTINEL;
  g.fillStyle = before;
  if (!known) throw invalidParameter('color', `is not a colour this server knows: use a CSS colour name (orange, teal…) or #rgb / #rrggbb, got "${color}"`);
  return color;
}

function bar(g: Ctx, x: number, y: number, w: number, h: number, fraction: number, track: string, fill: string): void {
  roundRect(g, x, y, w, h, h / 2);
  g.fillStyle = track;
  g.fill();
  roundRect(g, x, y, Math.max(h, w * Math.min(1, Math.max(0, fraction))), h, h / 2);
  g.fillStyle = fill;
  g.fill();
}

function spotify(g: Ctx, W: number, H: number, p: CardParams, image?: Canvas): void {
  const accent = accentOf(g, p.color, '#1db954');
  g.fillStyle = '#121212';
  roundRect(g, 0, 0, W, H, 28);
  g.fill();
  g.save();
  roundRect(g, 30, 30, H - 60, H - 60, 16);
  g.clip();
  if (image) cover(g, image, 30, 30, H - 60, H - 60);
  else {
    const grad = g.createLinearGradient(30, 30, H - 30, H - 30);
    grad.addColorStop(0, accent);
    grad.addColorStop(1, '#191414');
    g.fillStyle = grad;
    g.fillRect(30, 30, H - 60, H - 60);
    g.fillStyle = '#ffffff';
    g.font = font(BOLD, 110);
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText('♪', H / 2, H / 2);
  }
  g.restore();
  const x = H + 10,
    w = W - x - 40;
  g.textAlign = 'left';
  g.textBaseline = 'alphabetic';
  const title = fitLine(g, p.title, BOLD, w, 44, 22);
  g.font = font(BOLD, title.size);
  g.fillStyle = '#ffffff';
  g.fillText(title.text, x, 100);
  const artist = fitLine(g, p.text ?? '', BODY, w, 28, 16);
  g.font = font(BODY, artist.size);
  g.fillStyle = '#b3b3b3';
  g.fillText(artist.text, x, 145);
  const duration = p.duration ?? 210,
    position = Math.min(p.position ?? Math.round(duration * 0.35), duration);
  bar(g, x, 200, w, 8, position / duration, '#4d4d4d', accent);
  g.font = font(BODY, 20);
  g.fillStyle = '#b3b3b3';
  g.fillText(playerClock(position), x, 240);
  g.textAlign = 'right';
  g.fillText(playerClock(duration), x + w, 240);
}

function banner(g: Ctx, W: number, H: number, p: CardParams, image?: Canvas): void {
  const accent = accentOf(g, p.color, p.type === 'goodbye' ? '#ef4444' : '#6366f1');
  const grad = g.createLinearGradient(0, 0, W, H);
  grad.addColorStop(0, '#0f172a');
  grad.addColorStop(1, accent);
  g.fillStyle = grad;
  roundRect(g, 0, 0, W, H, 32);
  g.fill();
  const r = 90,
    cy = 130;
  g.beginPath();
  g.arc(W / 2, cy, r + 8, 0, Math.PI * 2);
  g.fillStyle = '#ffffff';
  g.fill();
  avatar(g, image, W / 2, cy, r, p.title, nameColor(p.title));
  g.textAlign = 'center';
  g.textBaseline = 'alphabetic';
  g.fillStyle = '#ffffff';
  g.font = font(BOLD, 56);
  g.fillText(p.type === 'goodbye' ? 'GOODBYE' : 'WELCOME', W / 2, 300);
  const name = fitLine(g, p.title, BOLD, W - 120, 40, 18);
  g.font = font(BOLD, name.size);
  g.fillText(name.text, W / 2, 355);
  const line = fitLine(g, p.text ?? '', BODY, W - 120, 28, 14);
  g.font = font(BODY, line.size);
  g.fillStyle = '#e2e8f0';
  g.fillText(line.text, W / 2, 400);
}

function rankCard(g: Ctx, W: number, H: number, p: CardParams, image?: Canvas): void {
  const accent = accentOf(g, p.color, '#22d3ee');
  g.fillStyle = '#23272a';
  roundRect(g, 0, 0, W, H, 24);
  g.fill();
  g.fillStyle = '#090a0b';
  roundRect(g, 20, 20, W - 40, H - 40, 18);
  g.fill();
  avatar(g, image, 141, H / 2, 80, p.title, nameColor(p.title));
  const x = 260,
    w = W - x - 50;
  const level = p.level ?? 1,
    rank = p.rank ?? 1,
    maxxp = Math.max(1, p.maxxp ?? 100),
    xp = Math.min(p.xp ?? 0, maxxp);
  g.textBaseline = 'alphabetic';
  g.textAlign = 'right';
  g.font = font(BOLD, 52);
  g.fillStyle = accent;
  const levelText = String(level);
  g.fillText(levelText, W - 50, 90);
  const levelW = g.measureText(levelText).width;
  g.font = font(BODY, 24);
  g.fillStyle = accent;
  g.fillText('LEVEL', W - 58 - levelW, 90);
  const levelLabelW = g.measureText('LEVEL').width;
  g.font = font(BOLD, 52);
  g.fillStyle = '#ffffff';
  const rankText = `#${rank}`;
  const rankRight = W - 90 - levelW - levelLabelW;
  g.fillText(rankText, rankRight, 90);
  const rankW = g.measureText(rankText).width;
  g.font = font(BODY, 24);
  g.fillText('RANK', rankRight - rankW - 8, 90);
  g.textAlign = 'left';
  const name = fitLine(g, p.title, BOLD, w * 0.6, 40, 18);
  g.font = font(BOLD, name.size);
  g.fillStyle = '#ffffff';
  g.fillText(name.text, x, 165);
  if (p.text) {
    const sub = fitLine(g, p.text, BODY, w * 0.6, 22, 12);
    g.font = font(BODY, sub.size);
    g.fillStyle = '#9ca3af';
    g.fillText(sub.text, x, 130);
  }
  g.textAlign = 'right';
  g.font = font(BODY, 24);
  g.fillStyle = '#9ca3af';
  g.fillText(`${xp} / ${maxxp} XP`, W - 50, 165);
  bar(g, x, 185, w, 36, xp / maxxp, '#484b4e', accent);
}

const DRAW: Record<CardType, (g: Ctx, W: number, H: number, p: CardParams, image?: Canvas) => void> = {
  spotify,
  welcome: banner,
  goodbye: banner,
  rank: rankCard,
};

export async function renderCard(p: CardParams, image?: Canvas): Promise<RenderResult> {
  stickerFonts();
  const [W, H] = CARD_SIZES[p.type];
  const canvas = tracked(createCanvas(W, H));
  DRAW[p.type](canvas.getContext('2d'), W, H, p, image);
  const data = await encode(Buffer.from(canvas.data().buffer), W, H, p.format);
  return { data, contentType: CONTENT_TYPES[p.format], format: p.format, width: W, height: H };
}
