import t from 'tap';
import { fillPlaceholders, placeholderNames, PLACEHOLDER_SYNTAX } from '../../engine/core/placeholders.js';
import { substitute } from '../../engine/catalog/family.js';
import { fillTemplate } from '../../engine/core/mapping.js';
import { UpstreamRegistry } from '../../engine/catalog/upstreams.js';

/** The one placeholder filler (engine/core/placeholders.ts) under each of the three syntaxes. */

t.test('whole placeholders keep their type, embedded ones become text, absent ones drop out', async (t) => {
  const values: Record<string, unknown> = { n: 3, list: [1, 2], name: 'Ada' };
  const lookup = (name: string) => values[name];
  const filled = fillPlaceholders(
    { count: '${N}', text: 'hi ${NAME}!', gone: '${NONE}', deep: ['${LIST}', { x: 'n=${N}' }], keep: 7 },
    PLACEHOLDER_SYNTAX.env,
    (name) => lookup(name.toLowerCase()),
  );
  t.same(filled, { count: 3, text: 'hi Ada!', deep: [[1, 2], { x: 'n=3' }], keep: 7 });
  t.same(placeholderNames('/a/${params.id}/${env.KEY}/${params.id}', PLACEHOLDER_SYNTAX.call), ['params.id', 'env.KEY']);
});

t.test('family: {{name}}, {{a.b}}, {{.}}, {{name?}}; a missing required field throws', async (t) => {
  const item = { slug: 'neon', size: { w: 2 }, tags: ['a'] };
  t.same(substitute({ path: '/api/{{ slug }}', w: '{{size.w}}', all: '{{.}}', tags: '{{tags}}', opt: '{{nothing?}}', text: 'x{{nothing?}}y' }, item), {
    path: '/api/neon',
    w: 2,
    all: item,
    tags: ['a'],
    text: 'xy',
  });
  t.throws(() => substitute('{{nothing}}', item), /no field "nothing"/);
});

t.test('call: ${params.x} and ${env.X} from the call', async (t) => {
  const scope = { params: { q: 'cats', n: 5 }, env: { KEY: 'k1' } };
  t.same(fillTemplate({ q: '${params.q}', n: '${params.n}', auth: 'Bearer ${env.KEY}', none: '${params.none}' }, scope), {
    q: 'cats',
    n: 5,
    auth: 'Bearer k1',
  });
});

t.test('env: an upstream header whose variable is unset is left out', async (t) => {
  const spec = {
    name: 'demo',
    description: 'x',
    baseUrl: { env: 'DEMO_URL', default: 'http://127.0.0.1:1' },
    headers: { Authorization: 'Bearer ${DEMO_KEY}', 'X-Both': '${DEMO_KEY}-${DEMO_OTHER}', Plain: 'yes' },
    query: { key: '${DEMO_KEY}' },
  };
  const registry = new UpstreamRegistry([spec], { DEMO_KEY: 'abc' });
  const upstream = registry.get('demo');
  t.same(upstream.headers, { Authorization: 'Bearer abc', Plain: 'yes' });
  t.same(upstream.query, { key: 'abc' });
});
