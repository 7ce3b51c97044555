/**
 * No two templates may look the same: render every template for the same
 * params and compare hashes of the decoded pixels. Also checks each render
 * decodes as a PNG of the requested width.
 */
import crypto from 'node:crypto';
import t from 'tap';
import sharp from 'sharp';
import { loadTemplates } from '../../engine/effects/templates.js';
import { RenderPool } from '../../engine/effects/render-pool.js';
import { testPhoto } from './support.js';

const WIDTH = 160;
const photo = testPhoto();
const pool = new RenderPool({ queue: 4096 });
t.teardown(() => pool.close());

t.test('every template renders to distinct pixels', async (t) => {
  const seen = new Map<string, string>();
  const templates = [...loadTemplates().values()].map((l) => l.template);
  const results = await Promise.all(templates.map(async (template) => {
    const r = await pool.render({ template, params: { text: 'Manifold', text1: 'Manifold', text2: 'Effects', size: WIDTH }, photo: template.input.startsWith('image') ? photo : undefined });
    const { data, info } = await sharp(r.data).raw().toBuffer({ resolveWithObject: true });
    return { slug: template.slug, info, hash: crypto.createHash('sha256').update(data).digest('hex') };
  }));
  const clashes: string[] = [];
  let wrongSize = 0;
  for (const { slug, info, hash } of results) {
    if (info.width !== WIDTH || info.format !== 'raw') wrongSize++;
    if (seen.has(hash)) clashes.push(`${slug} = ${seen.get(hash)}`);
    seen.set(hash, slug);
  }
  t.equal(results.length, templates.length, 'every template rendered');
  t.equal(wrongSize, 0, `every render is ${WIDTH} px wide`);
  t.same(clashes, [], 'no two templates render identical pixels');
});
