/**
 * Inputs that reached 500 in the #22 campaign's sweep, now 4xx naming the problem: a YAML
 * document whose aliases expand past the limit (422), a QR text over its level's capacity
 * (400 naming the level and its limit), a card with a colour name it does not know or
 * without its picture (400), a NUL character in any text (400 naming the parameter).
 */
import t from 'tap';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { callEndpoint } from '../support/call.js';
import { serve, TEST_KEY } from '../support/serve.js';

const endpoints = loadEndpoints(ENDPOINTS_DIR);
const byPath = (p: string) => endpoints.find((e) => e.path === p)!;
const PATHS = [
  '/api/tools/yaml2json',
  '/api/tools/createqr',
  '/api/tools/canvascard',
  '/api/tools/ttp',
  '/api/tools/attp',
  '/api/tools/quotegenerator',
  '/api/tools/carbon',
  '/api/search/youtube',
];
const served = await serve({ CPU_THREADS: '1' }, { endpoints: endpoints.filter((e) => PATHS.includes(e.path)) });
t.teardown(() => served.close());
const call = (p: string, params: Record<string, unknown>) => callEndpoint(served.url, byPath(p), params, { key: TEST_KEY });

t.test('yaml2json: 100 references to one anchor expand past the limit: 422 too_complex', async (t) => {
  const yaml = `a: &x [1, 2, 3]\nb:\n${Array.from({ length: 100 }, () => '  - *x').join('\n')}\n`;
  const answer = await call('/api/tools/yaml2json', { yaml });
  t.equal(answer.status, 422);
  t.match(answer.json, { error: 'too_complex', message: /aliases/ });
  const fine = await call('/api/tools/yaml2json', { yaml: 'a: &x [1]\nb: *x\n' });
  t.same(fine.json.result, { a: [1], b: [1] }, 'a few aliases are expanded');
});

t.test('createqr: a text over the capacity of its level is 400 naming the level and the limit', async (t) => {
  const text = 'é'.repeat(1000); // 2,000 bytes of UTF-8: fits L and M, not Q or H
  for (const level of ['Q', 'H']) {
    const answer = await call('/api/tools/createqr', { text, level });
    t.equal(answer.status, 400, `level ${level}`);
    t.match(answer.json, { error: 'invalid_parameter', message: new RegExp(`level ${level}: at most ${level === 'Q' ? 1663 : 1273} bytes`) });
  }
  t.equal((await call('/api/tools/createqr', { text, level: 'L' })).status, 200, 'level L holds it');
  const emoji = await call('/api/tools/createqr', { text: '😀'.repeat(700) }); // 2,800 bytes at the default M
  t.equal(emoji.status, 400, 'emoji count four bytes each');
  const zalgo = await call('/api/tools/createqr', { text: `Z${'\u0301\u0316\u0353'.repeat(450)}`, level: 'M' }); // 2,701 bytes
  t.equal(zalgo.status, 400, 'combining marks are bytes too');
});

t.test('canvascard: an unknown colour name or a card without its picture is 400, not 500', async (t) => {
  const unknown = await call('/api/tools/canvascard', { type: 'welcome', title: 'Ann', color: 'notacolour' });
  t.equal(unknown.status, 400, JSON.stringify(unknown.json));
  t.match(unknown.json, { error: 'invalid_parameter', message: /color/ });
  for (const type of ['spotify', 'welcome', 'goodbye', 'rank']) {
    const answer = await call('/api/tools/canvascard', { type, title: 'Ann' });
    t.ok(answer.status < 500, `${type} without an image: ${answer.status} ${JSON.stringify(answer.json ?? {}).slice(0, 160)}`);
  }
});

t.test('a NUL character in a text parameter is 400 naming it, on every endpoint', async (t) => {
  for (const [p, param] of [
    ['/api/tools/ttp', 'text'],
    ['/api/tools/attp', 'text'],
    ['/api/tools/quotegenerator', 'text'],
    ['/api/tools/canvascard', 'title'],
    ['/api/tools/carbon', 'code'],
    ['/api/tools/yaml2json', 'yaml'],
    ['/api/search/youtube', 'q'],
  ] as const) {
    const answer = await call(p, { type: 'welcome', [param]: 'a\u0000b' });
    t.equal(answer.status, 400, `${p} ${param}`);
    t.match(answer.json, { error: 'invalid_parameter', message: new RegExp(`${param}.*NUL`) });
  }
});
