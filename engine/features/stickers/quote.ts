import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { CONTENT_TYPES, encode, type ImageFormat } from '../effects/encode.js';
import type { RenderResult } from '../effects/render.js';
import { avatar, BODY, BOLD, font, nameColor, roundRect, stickerFonts, wrap } from './draw.js';
import { tracked } from '../effects/surfaces.js';

/**
 * The quote sticker (a chat message as a sticker, as "quotly" bots make them): a round
 * avatar beside a rounded bubble holding the sender's name in their colour and the
 * wrapped message, laid out at 512 px wide and scaled into a 512×512 transparent square.
 */
const SIDE = 512;
const AVATAR = 34,
  GAP = 10,
  PAD = 18,
  RADIUS = 22;

export async function renderQuote(p: { text: string; name: string; color: string; format: ImageFormat }, photo?: Canvas): Promise<RenderResult> {
  stickerFonts();
  const measure = tracked(createCanvas(1, 1)).getContext('2d');
  const bubbleX = AVATAR * 2 + GAP,
    maxText = SIDE - bubbleX - PAD * 2;
  // long messages get a smaller type so they stay a sticker, not a page
  let size = 26,
    lines: string[] = [];
  for (; size >= 14; size -= 2) {
    measure.font = font(BODY, size);
    lines = wrap(measure, p.text, maxText);
    if (lines.length * size * 1.3 <= SIDE * 1.6) break;
  }
  const lineHeight = size * 1.3,
    nameSize = Math.round(size * 0.9);
  measure.font = font(BOLD, nameSize);
  const nameWidth = Math.min(measure.measureText(p.name).width, maxText);
  measure.font = font(BODY, size);
  const textWidth = Math.max(nameWidth, ...lines.map((l) => measure.measureText(l).width));
  const bubbleW = Math.ceil(textWidth + PAD * 2),
    bubbleH = Math.ceil(PAD * 2 + nameSize * 1.4 + lines.length * lineHeight);
  const contentW = bubbleX + bubbleW,
    contentH = Math.max(bubbleH, AVATAR * 2);

  const canvas = tracked(createCanvas(SIDE, SIDE));
  const g = canvas.getContext('2d');
  const k = Math.min(1, SIDE / contentW, SIDE / contentH);
  g.translate((SIDE - contentW * k) / 2, (SIDE - contentH * k) / 2);
  g.scale(k, k);
  const color = nameColor(p.name);
  avatar(g, photo, AVATAR, contentH - AVATAR, AVATAR, p.name, color);
  roundRect(g, bubbleX, contentH - bubbleH, bubbleW, bubbleH, RADIUS);
  g.fillStyle = p.color;
  g.fill();
  g.textBaseline = 'top';
  g.textAlign = 'left';
  g.font = font(BOLD, nameSize);
  g.fillStyle = color;
  g.fillText(p.name, bubbleX + PAD, contentH - bubbleH + PAD, maxText);
  g.font = font(BODY, size);
  g.fillStyle = '#ffffff';
  lines.forEach((line, i) => g.fillText(line, bubbleX + PAD, contentH - bubbleH + PAD + nameSize * 1.4 + i * lineHeight));
  const data = await encode(Buffer.from(canvas.data().buffer), SIDE, SIDE, p.format);
  return { data, contentType: CONTENT_TYPES[p.format], format: p.format, width: SIDE, height: SIDE };
}
