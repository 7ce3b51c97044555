/**
 * No two templates may look the same: render every template for the same
 * params and compare hashes of the decoded pixels, then compare 32×16
 * thumbnails so that near-copies (a barely different tint) fail too. Also
 * checks each render decodes as a PNG of the requested width.
 */
import crypto from 'node:crypto';
import t from 'tap';
import sharp from 'sharp';
import { loadTemplates } from '../../engine/features/effects/templates.js';
import { RenderPool } from '../../engine/features/effects/render-pool.js';
import { testPhoto } from './support.js';

const WIDTH = 160;
/** Smallest mean per-channel difference (0..255) allowed between two templates' thumbnails. */
const MIN_DIFFERENCE = 1;
const photo = testPhoto();
const pool = new RenderPool({ queue: 4096 });
t.teardown(() => pool.close());

t.test('every template renders to distinct pixels', async (t) => {
  const seen = new Map<string, string>();
  const templates = [...loadTemplates().values()].map((l) => l.template);
  const results = await Promise.all(
    templates.map(async (template) => {
      const r = await pool.render({
        template,
        params: { text: 'Manifold', text1: 'Manifold', text2: 'Effects', size: WIDTH },
        photo: template.input.startsWith('image') ? photo : undefined,
      });
      const { data, info } = await sharp(r.data).raw().toBuffer({ resolveWithObject: true });
      const format = (await sharp(r.data).metadata()).format;
      const thumb = await sharp(r.data).resize(32, 16, { fit: 'fill' }).removeAlpha().raw().toBuffer();
      return { slug: template.slug, info, format, thumb, hash: crypto.createHash('sha256').update(data).digest('hex') };
    }),
  );
  const clashes: string[] = [];
  let wrongSize = 0;
  for (const { slug, info, format, hash } of results) {
    if (info.width !== WIDTH || format !== 'png') wrongSize++;
    if (seen.has(hash)) clashes.push(`${slug} = ${seen.get(hash)}`);
    seen.set(hash, slug);
  }
  t.equal(results.length, templates.length, 'every template rendered');
  t.equal(wrongSize, 0, `every render is a PNG ${WIDTH} px wide`);
  t.same(clashes, [], 'no two templates render identical pixels');

  // Mean absolute difference per channel between thumbnails, over every pair.
  const near: string[] = [];
  for (let i = 0; i < results.length; i++) {
    for (let j = i + 1; j < results.length; j++) {
      const a = results[i].thumb,
        b = results[j].thumb;
      if (a.length !== b.length) continue;
      let d = 0;
      for (let k = 0; k < a.length; k++) d += Math.abs(a[k] - b[k]);
      if (d / a.length < MIN_DIFFERENCE) near.push(`${results[i].slug} ~ ${results[j].slug} (${(d / a.length).toFixed(2)})`);
    }
  }
  t.same(near, [], `every pair of templates differs by at least ${MIN_DIFFERENCE} levels on average`);
});
