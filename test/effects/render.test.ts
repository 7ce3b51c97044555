import t from 'tap';
import sharp from 'sharp';
import { renderTemplate } from '../../engine/features/effects/render.js';
import type { Template, TextLayer } from '../../engine/features/effects/template.generated.js';
import { testPhoto } from './support.js';

const base = (text: Partial<TextLayer> = {}, extra: Partial<Template> = {}): Template => ({
  slug: 'unit',
  name: 'Unit test',
  site: 'textpro',
  family: 'test',
  description: 'a template for unit tests',
  input: 'text',
  canvas: { width: 400, height: 200 },
  background: [{ type: 'fill', paint: '#000000' }],
  text: [{ font: 'anton', fill: '#ffffff', ...text }],
  ...extra,
});

async function pixels(buf: Buffer) {
  const { data, info } = await sharp(buf).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, info, at: (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)] };
}

/** Columns that contain any non-black pixel: where the ink is. */
async function inkColumns(buf: Buffer) {
  const { data, info } = await pixels(buf);
  const cols: number[] = [];
  for (let x = 0; x < info.width; x++) {
    for (let y = 0; y < info.height; y++)
      if (data[(y * info.width + x) * 4] > 40) {
        cols.push(x);
        break;
      }
  }
  return { first: cols[0], last: cols.at(-1)!, width: info.width };
}

t.test('formats: png, jpg and webp are what they claim to be', async (t) => {
  for (const [format, type, magic] of [
    ['png', 'image/png', '89504e47'],
    ['jpg', 'image/jpeg', 'ffd8ff'],
    ['webp', 'image/webp', '52494646'],
  ] as const) {
    const r = await renderTemplate(base(), { text: 'Hi', format });
    t.equal(r.contentType, type);
    t.equal(r.data.subarray(0, magic.length / 2).toString('hex'), magic, `${format} magic bytes`);
    t.equal((await sharp(r.data).metadata()).format, format === 'jpg' ? 'jpeg' : format);
  }
});

t.test('size scales the canvas keeping the aspect', async (t) => {
  const r = await renderTemplate(base(), { text: 'Hi', size: 200 });
  t.same([r.width, r.height], [200, 100]);
  t.same([(await sharp(r.data).metadata()).width, (await sharp(r.data).metadata()).height], [200, 100]);
});

t.test('text is fitted inside its box whatever its length', async (t) => {
  for (const text of ['A', 'Manifold', 'A much longer line of text than the box was drawn for']) {
    const ink = await inkColumns((await renderTemplate(base({ box: { x: 0.5, y: 0.5, w: 0.5, h: 0.5 } }), { text })).data);
    t.ok(ink.first >= 100 - 2 && ink.last <= 300 + 2, `"${text.slice(0, 12)}" inked within x 100..300 (got ${ink.first}..${ink.last})`);
  }
  const short = await inkColumns((await renderTemplate(base({ box: { x: 0.5, y: 0.5, w: 0.9, h: 0.9 }, maxSize: 40 }), { text: 'Hi' })).data);
  t.ok(short.last - short.first < 80, 'maxSize caps a short text');
});

t.test('renders are deterministic, and each decoration changes the pixels', async (t) => {
  const plain = (await renderTemplate(base(), { text: 'Manifold' })).data;
  t.same((await renderTemplate(base(), { text: 'Manifold' })).data, plain, 'same input, same bytes');
  const variants: [string, Partial<TextLayer>][] = [
    ['curve', { curve: 60 }],
    ['letter spacing', { letterSpacing: 0.2 }],
    ['skew', { skewX: 20 }],
    ['rotation', { rotate: 10 }],
    ['outline', { outlines: [{ width: 0.05, paint: '#ff0000' }] }],
    ['shadow', { shadows: [{ x: 0.05, y: 0.05, blur: 0.05, color: '#00ff00' }] }],
    ['glow', { glows: [{ blur: 0.3, color: '#ff00ff' }] }],
    ['extrusion', { extrude: { depth: 0.2, from: '#884400', to: '#221100' } }],
    ['bevel', { bevel: { size: 0.05, light: '#ffffff', dark: '#000000' }, fill: '#808080' }],
    [
      'gradient fill',
      {
        fill: {
          type: 'linear',
          stops: [
            [0, '#ff0000'],
            [1, '#0000ff'],
          ],
        },
      },
    ],
    ['pattern fill', { fill: { type: 'pattern', shape: 'stripes', colors: ['#ffffff', '#ff0000'] } }],
    [
      'noise fill',
      {
        fill: {
          type: 'noise',
          mode: 'marble',
          stops: [
            [0, '#ffffff'],
            [1, '#0000ff'],
          ],
        },
      },
    ],
    ['overlay', { overlays: [{ paint: '#ff0000', top: 0.5 }] }],
    ['reflection', { reflection: { opacity: 0.5 } }],
  ];
  for (const [what, layer] of variants) {
    const r = await renderTemplate(base(layer), { text: 'Manifold' });
    t.not(r.data.equals(plain), true, what);
  }
});

t.test('post filters change the pixels', async (t) => {
  const plain = (await renderTemplate(base(), { text: 'Manifold' })).data;
  for (const filter of [
    { type: 'blur', radius: 3 },
    { type: 'noise', amount: 0.3 },
    { type: 'glitch', slices: 6, offset: 20, shift: 4 },
    { type: 'vignette', strength: 0.9, color: '#ff0000' },
    { type: 'matrix', matrix: [0, 0, 0, 0, 255, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0] },
    { type: 'css', filter: 'invert(1)' },
    { type: 'scanlines', spacing: 4, opacity: 0.5 },
    { type: 'pixelate', size: 8 },
    { type: 'bloom', radius: 6, strength: 0.8 },
  ] as NonNullable<Template['filters']>) {
    const r = await renderTemplate(base({}, { filters: [filter] }), { text: 'Manifold' });
    t.notOk(r.data.equals(plain), filter.type);
  }
  const inverted = await pixels((await renderTemplate(base({}, { filters: [{ type: 'css', filter: 'invert(1)' }] }), { text: 'Manifold' })).data);
  t.same(inverted.at(0, 0).slice(0, 3), [255, 255, 255], 'invert turns the black corner white');
});

t.test('photo templates draw the photo; an unreadable photo is reported as such', async (t) => {
  const photoTemplate = base(
    {},
    {
      input: 'image',
      text: [],
      background: [
        { type: 'fill', paint: '#000000' },
        { type: 'image', box: { x: 0.5, y: 0.5, w: 0.5, h: 0.5 } },
      ],
    },
  );
  const { at } = await pixels((await renderTemplate(photoTemplate, {}, testPhoto())).data);
  t.same(at(5, 5).slice(0, 3), [0, 0, 0], 'outside the photo box stays black');
  t.not(at(200, 100).slice(0, 3).join(), '0,0,0', 'inside the box shows the photo');
  await t.rejects(renderTemplate(photoTemplate, {}, Buffer.from('not an image')), { code: 'photo_unreadable' });
});

t.test('a long text wraps onto up to three lines instead of shrinking to a thread', async (t) => {
  const inkRows = async (buf: Buffer) => {
    const { data, info } = await pixels(buf);
    const rows: number[] = [];
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < info.width; x++)
        if (data[(y * info.width + x) * 4] > 40) {
          rows.push(y);
          break;
        }
    }
    return rows;
  };
  const long = 'a long sentence that clients send to effects';
  const wrapped = await inkRows((await renderTemplate(base(), { text: long })).data);
  const curved = await inkRows((await renderTemplate(base({ curve: 1 }), { text: long })).data);
  t.ok(wrapped.length > curved.length * 2, `wrapped text covers more rows (${wrapped.length}) than the one-line curved text (${curved.length})`);
  const ink = await inkColumns((await renderTemplate(base({ box: { x: 0.5, y: 0.5, w: 0.5, h: 0.5 } }), { text: long })).data);
  t.ok(ink.first >= 98 && ink.last <= 302, 'and stays inside its box');
});
