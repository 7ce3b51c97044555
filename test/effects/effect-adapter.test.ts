import path from 'node:path';
import t from 'tap';
import sharp from 'sharp';
import { effect } from '../../engine/kinds/adapters/effect.js';
import { photoOp } from '../../engine/features/effects/photo-op.js';
import { answerFile } from '../../engine/contract/file-output.js';
import { EngineScope } from '../../engine/platform/scope.js';
import { RenderPool } from '../../engine/features/effects/render-pool.js';
import { loadTemplates } from '../../engine/features/effects/templates.js';
import { ApiError } from '../../engine/core/errors.js';
import type { AdapterSetup, Call } from '../../engine/contract/call.js';
import { testPhoto } from './support.js';
import { adapterCall } from '../support/adapter-call.js';

const manifestDir = path.resolve(import.meta.dirname, '../../endpoints/effects');
const templates = loadTemplates();
/** The effect config of a template's endpoint (its family item). */
const configOf = (slug: string) => ({ template: templates.get(slug)!.template });
/** One configuration for every fake setup: they share its engine scope (one render pool), closed at the end. */
const config = { env: {} };
const scope = new EngineScope();
t.teardown(() => scope.close());

/** A setup whose file store records what it was given and whose HTTP client serves one photo. */
function fakeSetup(photo = testPhoto()) {
  const stored: { data: Buffer; ext: string }[] = [];
  const fetched: string[] = [];
  const setup = {
    manifestDir,
    config,
    scope,
    // the effect endpoints are streamable: the engine hosts the picture unless stream=true
    endpoint: { path: '/api/effects/test', response: 'streamable' },
    files: {
      put: async (data: Buffer, { ext }: { ext: string }) => {
        stored.push({ data, ext });
        return { url: `http://files.test/${stored.length}.${ext}` };
      },
    },
    http: {
      fetchUserUrl: async (url: string) => {
        fetched.push(url);
        return { body: photo, finalUrl: url };
      },
    },
  } as unknown as AdapterSetup;
  return { setup, stored, fetched };
}
const call = adapterCall;

t.test('default answer: a hosted image URL in the result', async (t) => {
  const { setup, stored } = fakeSetup();
  const handler = await effect.create(configOf('galaxy'), setup);
  const out = await handler(call({ text: 'Hello', size: 300 }));
  t.match(out, { type: 'json', result: { image_url: 'http://files.test/1.png', format: 'png', width: 300, height: 150 } });
  t.equal(stored.length, 1);
  t.equal((await sharp(stored[0].data).metadata()).format, 'png');
});

t.test('stream=true: the image bytes', async (t) => {
  const { setup, stored } = fakeSetup();
  const handler = await effect.create(configOf('glitchtext'), setup);
  const out = await handler(call({ text: 'Hello', size: 256, format: 'jpg', stream: true }));
  if (out.type !== 'binary') throw new Error('expected bytes');
  t.equal(out.contentType, 'image/jpeg');
  t.equal(out.filename, 'glitchtext.jpg');
  t.equal((await sharp(out.body as Buffer).metadata()).format, 'jpeg');
  t.equal(stored.length, 0, 'nothing stored');
});

t.test('identical requests render once, concurrent ones share the render', async (t) => {
  const { setup } = fakeSetup();
  const handler = await effect.create(configOf('luxurygold'), setup);
  const [a, b] = await Promise.all([handler(call({ text: 'Once', size: 200, stream: true })), handler(call({ text: 'Once', size: 200, stream: true }))]);
  const c = await handler(call({ text: 'Once', size: 200, stream: true }));
  const d = await handler(call({ text: 'Twice', size: 200, stream: true }));
  if (a.type !== 'binary' || b.type !== 'binary' || c.type !== 'binary' || d.type !== 'binary') throw new Error('expected bytes');
  t.equal(a.body, b.body, 'concurrent identical calls get the same render');
  t.equal(a.body, c.body, 'a later identical call is served from the cache');
  t.not(a.body, d.body, 'other text renders anew');
});

t.test('photo effects fetch the url through the HTTP client; data URLs decode locally', async (t) => {
  const photoSlug = [...templates.values()].find((l) => l.template.input === 'image')!.template.slug;
  const { setup, fetched } = fakeSetup();
  const handler = await effect.create(configOf(photoSlug), setup);
  t.match(await handler(call({ url: 'https://example.com/me.png', size: 200 })), { type: 'json', result: { format: 'png' } });
  t.same(fetched, ['https://example.com/me.png']);
  const dataUrl = `data:image/png;base64,${testPhoto(40, 30).toString('base64')}`;
  t.match(await handler(call({ url: dataUrl, size: 200 })), { type: 'json' });
  t.equal(fetched.length, 1, 'a data URL is not fetched');
  await t.rejects(handler(call({ url: 'data:text/plain;base64,aGk=' })), { code: 'invalid_parameter' });
  const garbage = fakeSetup(Buffer.from('<html>not an image</html>'));
  await t.rejects((await effect.create(configOf(photoSlug), garbage.setup))(call({ url: 'https://example.com/x' })), {
    status: 400,
    code: 'invalid_parameter',
  });
});

t.test('a full render queue answers 503 overloaded', async (t) => {
  const pool = new RenderPool({ threads: 1, queue: 1 });
  t.teardown(() => pool.close());
  const template = templates.get('galaxy')!.template;
  const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => pool.render({ template, params: { text: `n${i}`, size: 1024 } })));
  const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
  t.ok(refused.length >= 5, `most calls refused (${refused.length} of 8)`);
  for (const err of refused) (t.match(err, { status: 503, code: 'overloaded' }), t.ok(err instanceof ApiError));
  t.ok(
    results.some((r) => r.status === 'fulfilled'),
    'the ones admitted still render',
  );
});

t.test('photo manipulations (effects/photo-op.ts) answer like effects, bad photos get 400', async (t) => {
  const { setup, fetched } = fakeSetup();
  // the picture is the call's file: the engine's one decision answers it
  const handler = async (c: Call) => answerFile(await photoOp(setup, c, 'grayscale'), c, setup as unknown as AdapterSetup);
  const out = await handler(call({ url: 'https://example.com/me.png', format: 'webp' }));
  t.match(out, { type: 'json', result: { image_url: /\.webp$/, format: 'webp' } });
  t.same(fetched, ['https://example.com/me.png']);
  const bytes = await handler(call({ url: 'https://example.com/me.png', stream: true }));
  t.match(bytes, { type: 'binary', contentType: 'image/png', filename: 'grayscale.png' });
  const garbage = fakeSetup(Buffer.from('GIF89a-but-not-really'));
  await t.rejects(photoOp(garbage.setup, call({ url: 'https://example.com/x' }), 'blur'), { status: 400, code: 'invalid_parameter' });
});
