import t from 'tap';
import { ApiError } from '../../engine/core/errors.js';
import { loadConfig } from '../../engine/platform/config.js';
import { EngineScope } from '../../engine/platform/scope.js';
import { PHOTO_MAX_PIXELS } from '../../engine/features/effects/photo-input.js';
import { renderPool } from '../../engine/features/effects/shared.js';
import { loadTemplates } from '../../engine/features/effects/templates.js';
import { serve, TEST_KEY } from '../support/serve.js';

/**
 * A photo the decoder refuses (engine/features/effects/photo-input.ts): decoded in a worker of
 * the render pool, it crosses the thread as a typed error (code photo_unreadable, no message
 * prefix to match), and every endpoint that takes a photo answers it as a 400 naming the
 * parameter the photo came from, as it always has.
 */

const NOT_AN_IMAGE = Buffer.from('<html>not an image</html>');
const DATA_URL = `data:image/png;base64,${NOT_AN_IMAGE.toString('base64')}`;
const PROBLEM = `not a supported image, or over ${PHOTO_MAX_PIXELS / 1e6} megapixels`;
const photoTemplate = [...loadTemplates().values()].find((l) => l.template.input === 'image')!.template;

t.test("an unreadable photo crosses the render pool's thread as photo_unreadable", async (t) => {
  const scope = new EngineScope();
  t.teardown(() => scope.close());
  const pool = renderPool({ config: loadConfig({}), scope });
  for (const [what, job] of [
    ['a template', { template: photoTemplate, params: {}, photo: NOT_AN_IMAGE }],
    ['an image manipulation', { op: 'grayscale', params: {}, input: NOT_AN_IMAGE }],
    ['a sticker', { sticker: 'quote', params: { text: 'hi', name: 'A' }, images: { image: NOT_AN_IMAGE } }],
  ] as const) {
    const err = await pool.render(job as Parameters<typeof pool.render>[0]).catch((e: unknown) => e);
    t.ok(err instanceof ApiError, `${what}: an ApiError on this side of the thread`);
    t.match(err, { code: 'photo_unreadable', status: 400 }, what);
  }
});

t.test('every endpoint that takes a photo answers an unreadable one with 400 naming its parameter', async (t) => {
  const served = await serve({});
  t.teardown(() => served.close());
  const cases: { what: string; path: string; query: Record<string, string>; param: string }[] = [
    { what: 'a photo effect', path: `/api/${photoTemplate.site}/${photoTemplate.slug}`, query: { url: DATA_URL }, param: 'url' },
    { what: 'an image manipulation', path: '/api/image/grayscale', query: { url: DATA_URL }, param: 'url' },
    { what: 'a sticker with an avatar', path: '/api/tools/quotegenerator', query: { text: 'hi', avatar: DATA_URL }, param: 'avatar' },
  ];
  for (const { what, path, query, param } of cases) {
    const res = await fetch(`${served.url}${path}?${new URLSearchParams(query)}`, { headers: { 'X-API-Key': TEST_KEY } });
    t.equal(res.status, 400, what);
    t.match(
      await res.json(),
      { status: 400, success: false, error: 'invalid_parameter', message: `Invalid parameter ${param}: ${PROBLEM}`, details: [{ param, problem: PROBLEM }] },
      what,
    );
  }
  // the sticker's colour check, decided in the worker too, crosses the same way
  const res = await fetch(`${served.url}/api/tools/canvascard?${new URLSearchParams({ title: 'hi', color: 'notacolour' })}`, {
    headers: { 'X-API-Key': TEST_KEY },
  });
  t.equal(res.status, 400);
  t.match(await res.json(), {
    error: 'invalid_parameter',
    message: /^Invalid parameter color: is not a colour this server knows: .*got "notacolour"$/,
    details: [{ param: 'color' }],
  });
});
