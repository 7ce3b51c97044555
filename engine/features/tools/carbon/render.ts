import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import { bundledLanguages, bundledThemes, createHighlighter, type BundledLanguage, type BundledTheme, type Highlighter } from 'shiki';
import { detectLanguage } from './detect-language.js';
import { FALLBACK_FAMILIES } from '../../effects/script-fonts.js';
import { tracked } from '../../effects/surfaces.js';

/**
 * Carbon-style code images: shiki tokenises the code with a VS Code theme (the same
 * grammars and colours editors use), and @napi-rs/canvas paints a window with
 * optional traffic-light controls and line numbers on a padded background.
 */
export interface CarbonOptions {
  code: string;
  language?: string;
  theme: string;
  /** CSS colour; `transparent` for none. */
  background: string;
  padding: number;
  windowControls: boolean;
  lineNumbers: boolean;
  fontSize: number;
}

const FONT = 'Manifold Mono';
const fontDir = createRequire(import.meta.url)
  .resolve('dejavu-fonts-ttf/package.json')
  .replace(/package\.json$/, 'ttf/');
GlobalFonts.registerFromPath(`${fontDir}DejaVuSansMono.ttf`, FONT);

export const THEMES = Object.keys(bundledThemes);
export const isLanguage = (name: string) => name === 'text' || name in bundledLanguages;

let highlighter: Promise<Highlighter> | undefined;
/** One highlighter for the process; grammars and themes load on first use. */
async function highlighterFor(language: string, theme: string): Promise<Highlighter> {
  highlighter ??= createHighlighter({ themes: [], langs: [] });
  const h = await highlighter;
  if (!h.getLoadedThemes().includes(theme)) await h.loadTheme(theme as BundledTheme);
  if (language !== 'text' && !h.getLoadedLanguages().includes(language)) await h.loadLanguage(language as BundledLanguage);
  return h;
}

const MAX_LINES = 400;
const MAX_COLUMNS = 200;

export async function renderCarbon(options: CarbonOptions): Promise<{ png: Buffer; language: string }> {
  const language = options.language ?? detectLanguage(options.code);
  const h = await highlighterFor(language, options.theme);
  const code = options.code.replace(/\t/g, '  ').replace(/\s+$/, '');
  // shiki gives up on a line after tokenizeTimeLimit (500 ms by default) and returns the rest
  // of it as one uncoloured token; a cold grammar on a busy CPU can hit that, so allow more
  const { tokens, bg, fg } = h.codeToTokens(code, { lang: language as BundledLanguage, theme: options.theme as BundledTheme, tokenizeTimeLimit: 5000 });
  const lines = tokens.slice(0, MAX_LINES);

  const size = options.fontSize;
  const lineHeight = Math.round(size * 1.5);
  const measure = tracked(createCanvas(1, 1)).getContext('2d');
  measure.font = `${size}px "${FONT}", ${FALLBACK_FAMILIES}`;
  const charWidth = measure.measureText('M').width;
  const columns = Math.min(MAX_COLUMNS, Math.max(20, ...lines.map((line) => line.reduce((n, t) => n + t.content.length, 0))));
  const gutter = options.lineNumbers ? (String(lines.length).length + 2) * charWidth : 0;
  const inner = 24;
  const titleBar = options.windowControls ? 40 : 0;
  const windowWidth = Math.ceil(inner * 2 + gutter + columns * charWidth);
  const windowHeight = Math.ceil(titleBar + inner * 2 + lines.length * lineHeight);
  const pad = options.padding;
  const canvas = tracked(createCanvas(windowWidth + pad * 2, windowHeight + pad * 2));
  const ctx = canvas.getContext('2d');

  if (options.background !== 'transparent') {
    ctx.fillStyle = options.background;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
  }
  ctx.save();
  ctx.shadowColor = 'rgba(0, 0, 0, 0.45)';
  ctx.shadowBlur = pad > 0 ? 40 : 0;
  ctx.shadowOffsetY = pad > 0 ? 16 : 0;
  roundedRect(ctx, pad, pad, windowWidth, windowHeight, 8);
  ctx.fillStyle = bg ?? '#1e1e1e';
  ctx.fill();
  ctx.restore();

  if (options.windowControls) {
    ['#ff5f56', '#ffbd2e', '#27c93f'].forEach((colour, i) => {
      ctx.beginPath();
      ctx.arc(pad + 20 + i * 20, pad + 20, 6, 0, Math.PI * 2);
      ctx.fillStyle = colour;
      ctx.fill();
    });
  }

  ctx.font = `${size}px "${FONT}", ${FALLBACK_FAMILIES}`;
  ctx.textBaseline = 'middle';
  const left = pad + inner;
  lines.forEach((line, row) => {
    const y = pad + titleBar + inner + row * lineHeight + lineHeight / 2;
    if (options.lineNumbers) {
      ctx.fillStyle = fg ?? '#d4d4d4';
      ctx.globalAlpha = 0.4;
      const label = String(row + 1);
      ctx.fillText(label, left + gutter - (label.length + 2) * charWidth, y);
      ctx.globalAlpha = 1;
    }
    let column = 0;
    for (const token of line) {
      if (column >= MAX_COLUMNS) break;
      const text = token.content.slice(0, MAX_COLUMNS - column);
      ctx.fillStyle = token.color ?? fg ?? '#d4d4d4';
      ctx.fillText(text, left + gutter + column * charWidth, y);
      column += text.length;
    }
  });
  return { png: await canvas.encode('png'), language };
}

function roundedRect(ctx: SKRSContext2D, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
  ctx.closePath();
}
