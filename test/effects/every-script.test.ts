import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import sharp from 'sharp';
import { createCanvas } from '@napi-rs/canvas';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadManifestFile } from '../../engine/catalog/load.js';
import { TEMPLATES_DIR } from '../../engine/features/effects/templates.js';
import { parseYaml } from '../../engine/core/yaml.js';
import { fontCss, registerFonts } from '../../engine/features/effects/fonts.js';
import { graphemes } from '../../engine/features/effects/glyph-units.js';
import { FALLBACK_FAMILIES, FONT_PACKAGES, missingScriptFonts } from '../../engine/features/effects/script-fonts.js';
import { serve, TEST_KEY } from '../support/serve.js';

/**
 * Text in every script, through the real endpoints: a sticker (ttp), a quote and a text
 * effect draw a string mixing Latin with diacritics, Cyrillic, colour emoji, Chinese,
 * Korean, Japanese, Arabic, Devanagari and Thai. Two checks, each failing on the code
 * before the fallback chain (DejaVu only: emoji as outlines or boxes, CJK and Devanagari
 * as boxes or nothing):
 * - no glyph is the missing-glyph one: each grapheme cluster in turn is swapped for as many
 *   U+0378 (unassigned: every font draws its .notdef there); a cluster that was itself a
 *   .notdef leaves the picture unchanged, a drawn one changes it;
 * - emoji carry colour: the mixed text has hundreds of warm saturated pixels (😂 is
 *   yellow, 🔥 orange) more than the same text with the emoji swapped for U+0378.
 * Needs Debian's fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji (.ci/run installs them).
 */

const MIXED = 'Hé Ệ Жук 😂🔥 你好 안녕 こ مرحبا नमस्ते สวัสดี';
const MISSING = '\u0378';
const EMOJI = /\p{Extended_Pictographic}/u;

registerFonts();
const lacking = missingScriptFonts(await import('@napi-rs/canvas'));
if (lacking.scripts.length) throw new Error(`fonts missing for ${lacking.scripts.join(', ')}: apt-get install ${FONT_PACKAGES.join(' ')}`);

const routes = { ttp: '/api/tools/ttp', quote: '/api/tools/quotegenerator', effect: '/api/textpro/blue-neon-sign' };
/** The real manifests: ttp, the quote, and the text effects' family with one template as its only item (expanding all 900 takes a minute on a busy machine). */
const manifest = (rel: string) => loadManifestFile(path.join(ENDPOINTS_DIR, rel), rel);
const effectsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-scripts-')), 'text-effects.yaml');
const family = parseYaml(fs.readFileSync(path.join(ENDPOINTS_DIR, 'effects/text-effects.yaml'), 'utf8')) as Record<string, unknown>;
const templateFile = path.join(TEMPLATES_DIR, 'blue-neon-sign.yaml');
family.family = { items: [{ ...(parseYaml(fs.readFileSync(templateFile, 'utf8')) as object), file: templateFile }] };
fs.writeFileSync(effectsFile, JSON.stringify(family));
const endpoints = [...manifest('tools/ttp.yaml'), ...manifest('tools/quotegenerator.yaml'), ...loadManifestFile(effectsFile, 'effects/text-effects.yaml')];
const served = await serve({}, { endpoints });
t.teardown(async () => {
  await served.close();
  fs.rmSync(path.dirname(effectsFile), { recursive: true, force: true });
});

/** The endpoint's image for this text, as raw RGBA pixels. */
async function draw(route: string, text: string): Promise<Buffer> {
  const params: Record<string, string> = {
    text,
    stream: 'true',
    ...(route === routes.quote ? { name: 'Ana' } : {}),
    ...(route === routes.effect ? { size: '512' } : {}),
  };
  const res = await fetch(`${served.url}${route}?${new URLSearchParams(params)}`, { headers: { 'x-api-key': TEST_KEY } });
  if (res.status !== 200) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return sharp(Buffer.from(await res.arrayBuffer()))
    .ensureAlpha()
    .raw()
    .toBuffer();
}

/** Opaque pixels of high saturation with a hue from red to yellow. */
function warmPixels(rgba: Buffer): number {
  let n = 0;
  for (let i = 0; i < rgba.length; i += 4) {
    const [r, g, b, a] = [rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]];
    const max = Math.max(r, g, b),
      min = Math.min(r, g, b);
    if (a < 200 || max - min < 100 || max !== r) continue;
    // red is the largest channel: hue 0–60° when green is at least blue
    if (g >= b) n++;
  }
  return n;
}

const clusters = graphemes(MIXED);
const swapped = (i: number) => clusters.map((c, j) => (j === i ? MISSING.repeat([...c].length) : c)).join('');

for (const [name, route] of Object.entries(routes)) {
  t.test(`${name}: every cluster of the mixed text is a drawn glyph, not the missing-glyph box`, async (t) => {
    const whole = await draw(route, MIXED);
    const reference = await draw(route, MISSING.repeat(3));
    t.not(whole.equals(reference), true, 'the mixed text draws something');
    for (const [i, cluster] of clusters.entries()) {
      if (!cluster.trim()) continue;
      const without = await draw(route, swapped(i));
      t.notOk(whole.equals(without), `${cluster} (${hex(cluster)}) is drawn`);
    }
  });

  t.test(`${name}: emoji are drawn in colour`, async (t) => {
    const withEmoji = warmPixels(await draw(route, MIXED));
    const withoutEmoji = warmPixels(await draw(route, clusters.map((c) => (EMOJI.test(c) ? MISSING.repeat([...c].length) : c)).join('')));
    t.ok(withEmoji - withoutEmoji >= 150, `${withEmoji} warm pixels with 😂🔥, ${withoutEmoji} without`);
  });
}

/** The Unicode code points shown as emoji by default (Emoji_Presentation), as Node's RegExp knows them. */
const emojiCodePoints: string[] = [];
for (let cp = 0x2000; cp < 0x1fc00; cp++) if (/\p{Emoji_Presentation}/u.test(String.fromCodePoint(cp))) emojiCodePoints.push(String.fromCodePoint(cp));

/** One code point drawn in a 48-px square: the same pixels mean the same glyph of the same font. */
const square = createCanvas(48, 48);
const pen = square.getContext('2d');
function tile(css: string, text: string): Buffer {
  pen.clearRect(0, 0, 48, 48);
  pen.font = css;
  pen.fillText(text, 4, 40);
  return Buffer.from(square.data());
}
const hex = (s: string) => `U+${s.codePointAt(0)!.toString(16).toUpperCase()}`;

t.test('emoji come from the colour font after every display font the stickers offer, and in quote and card text', async (t) => {
  const emojiFont = '32px "Noto Color Emoji"';
  const notdef = tile(emojiFont, MISSING);
  const emojiTiles = new Map(emojiCodePoints.map((e) => [e, tile(emojiFont, e)]));
  const colour = emojiCodePoints.filter((e) => !emojiTiles.get(e)!.equals(notdef));
  t.ok(colour.length > 1000, `${colour.length} of ${emojiCodePoints.length} emoji code points are in the colour font`);
  const fonts = {
    ...Object.fromEntries(['luckiest-guy', 'anton', 'bangers', 'permanent-marker', 'pacifico', 'lobster'].map((id) => [id, fontCss(id, 32)])),
    'quote and card text': `32px ${FALLBACK_FAMILIES}`,
  };
  for (const [id, css] of Object.entries(fonts)) {
    const elsewhere = colour.filter((e) => !tile(css, e).equals(emojiTiles.get(e)!));
    t.same(elsewhere.map(hex), [], `${id}: every emoji drawn by the colour font`);
  }
});

t.test('complex scripts are shaped (HarfBuzz): Arabic letters join, a Devanagari conjunct forms', async (t) => {
  const g = createCanvas(8, 8).getContext('2d');
  g.font = `40px ${FALLBACK_FAMILIES}`;
  const width = (s: string) => g.measureText(s).width;
  // a zero-width non-joiner between letters forces their isolated forms, which are wider
  t.ok(width('مرحبا') < width([...'مرحبا'].join('\u200c')) - 5, 'joined Arabic is narrower than its isolated letters');
  t.ok(width('स्त') < width('स्\u200cत') - 3, 'स्त is a conjunct, narrower than स् followed by त');
});
