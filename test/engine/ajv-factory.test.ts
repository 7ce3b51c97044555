import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ajvFor } from '../../engine/core/ajv.js';
import { ROOT } from '../../engine/core/root.js';

/** The one Ajv factory (engine/core/ajv.ts): what each use does to data, and that nothing else makes an Ajv. */

const schema = { type: 'object', properties: { n: { type: 'integer', default: 3 }, url: { type: 'string', format: 'uri' } } };

t.test('request: query strings coerced, defaults filled, formats checked', async (t) => {
  const validate = ajvFor('request').compile(schema);
  const data: Record<string, unknown> = { url: 'https://x.test/' };
  t.ok(validate(data));
  t.same(data, { url: 'https://x.test/', n: 3 });
  const coerced: Record<string, unknown> = { n: '5' };
  t.ok(validate(coerced));
  t.equal(coerced.n, 5);
  t.notOk(validate({ url: 'not a url' }));
});

t.test('fill-defaults: defaults filled, nothing coerced', async (t) => {
  const validate = ajvFor('fill-defaults').compile(schema);
  const data: Record<string, unknown> = {};
  t.ok(validate(data));
  t.same(data, { n: 3 });
  t.notOk(validate({ n: '5' }));
});

t.test('as-written: the data is left as it is', async (t) => {
  const validate = ajvFor('as-written').compile(schema);
  const data: Record<string, unknown> = {};
  t.ok(validate(data));
  t.same(data, {});
  t.notOk(validate({ n: '5' }));
  t.notOk(validate({ url: 'not a url' }), 'formats are known');
});

t.test('one instance per use, and no other Ajv in engine/ or scripts/', async (t) => {
  t.equal(ajvFor('request'), ajvFor('request'));
  t.not(ajvFor('request'), ajvFor('as-written'));
  const makers: string[] = [];
  for (const dir of ['engine', 'scripts']) {
    for (const rel of fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
      if (!/\.(ts|mts|mjs)$/.test(rel) || rel.includes('node_modules')) continue;
      const text = fs.readFileSync(path.join(ROOT, dir, rel), 'utf8');
      if (/new Ajv\b|from 'ajv-formats'/.test(text)) makers.push(`${dir}/${rel}`);
    }
  }
  t.same(makers, ['engine/core/ajv.ts']);
});
