/**
 * Named mappings (engine/catalog/mappings.ts): a manifest names a mapping and gives
 * its parameters; the loader resolves the reference and fails with the manifest's file
 * and the mapping's name when the mapping or a parameter is wrong; parameter values are
 * bound as JMESPath variables, so a value can never act as an expression.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { TreeInterpreter } from '@jmespath-community/jmespath';
import { loadManifestFile } from '../../engine/catalog/load.js';
import { compileMapping, type Expression, type ResolvedMapping } from '../../engine/core/mapping.js';
import { loadCompiledCatalog } from '../../engine/pipeline/compiled-catalog.js';
import { INLINE_MAX_CHARS } from '../../engine/catalog/expressions.js';
import { checkAdapterConfig } from '../../engine/pipeline/endpoint-registry.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-mappings-'));
t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));

function write(rel: string, text: string): string {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

write(
  'mappings/shop.yaml',
  `
item:
  description: One item with its price in the asked currency and its status in words.
  params:
    currency: { description: ISO code of the price, schema: { type: string, pattern: "^[A-Z]{3}$" } }
    digits: { description: how many digits the price keeps, schema: { type: integer }, default: 2 }
  data: { statuses: data/statuses.yaml }
  expression: >-
    {name: name, price: prices[?currency == $currency] | [0].amount, currency: $currency, digits: $digits,
    status: let $s = to_string(status) in items($statuses)[?[0] == $s] | [0][1]}
`,
);
write('mappings/data/statuses.yaml', '"1": in stock\n"2": sold out\n');

const ANSWER = { name: 'Lamp', secret: 'do not leak', status: 2, prices: [{ currency: 'EUR', amount: 12 }] };

/** A manifest whose result is `result` (YAML flow text), loaded as the engine does. */
function manifest(name: string, result: string) {
  const rel = `api/${name}.yaml`;
  const file = write(
    rel,
    `path: /api/test/${name}
category: search
summary: Mapping test
adapter: { kind: http, config: { providers: [{ upstream: local, path: /item, result: ${result} }] } }
examples: [{ params: {}, expect: {} }]
`,
  );
  return () => {
    const [endpoint] = loadManifestFile(file, rel);
    const provider = (endpoint.adapter.config.providers as { result: Expression }[])[0];
    return { endpoint, provider, map: compileMapping(provider.result) };
  };
}

t.test('a reference resolves to the named expression with its parameters and data bound', async (t) => {
  const { provider, map } = manifest('ok', '{ mapping: shop.item, with: { currency: EUR } }')();
  t.match(provider.result, { mapping: 'shop.item', variables: { currency: 'EUR', digits: 2, statuses: { 1: 'in stock' } } });
  t.same(map(ANSWER), { name: 'Lamp', price: 12, currency: 'EUR', digits: 2, status: 'sold out' });
});

t.test('plain inline expressions keep working', async (t) => {
  const { provider, map } = manifest('inline', '"{name: name}"')();
  t.equal(provider.result, '{name: name}');
  t.same(map(ANSWER), { name: 'Lamp' });
});

t.test('an unknown mapping fails the load with the file and the name', async (t) => {
  t.throws(manifest('unknown', '{ mapping: shop.itme, with: { currency: EUR } }'), {
    name: 'ManifestError',
    file: 'api/unknown.yaml',
    field: 'adapter.config.providers.0.result.mapping',
    message: /unknown mapping "shop\.itme" \(mappings\/shop\.yaml has: item\)/,
  });
  t.throws(manifest('no-file', '{ mapping: nowhere.item }'), { message: /unknown mapping "nowhere\.item" \(no mappings\/nowhere\.yaml\)/ });
});

t.test('a missing, unknown or ill-typed parameter fails the load', async (t) => {
  t.throws(manifest('missing', '{ mapping: shop.item }'), {
    file: 'api/missing.yaml',
    message: /mapping shop\.item needs parameter "currency"/,
  });
  t.throws(manifest('extra', '{ mapping: shop.item, with: { currency: EUR, colour: red } }'), {
    field: 'adapter.config.providers.0.result.with.colour',
    message: /mapping shop\.item has no parameter "colour" \(parameters: currency, digits\)/,
  });
  t.throws(manifest('typed', '{ mapping: shop.item, with: { currency: EUR, digits: two } }'), {
    field: 'adapter.config.providers.0.result.with.digits',
    message: /must be integer/,
  });
  t.throws(manifest('stray', '{ mapping: shop.item, with: { currency: EUR }, expression: name }'), { message: /unknown field "expression"/ });
});

t.test('a parameter value is a literal, never an expression', async (t) => {
  // patterns aside (the test mapping checks currency codes), values reach the expression as data
  write('mappings/echo.yaml', 'value:\n  description: echoes its parameter\n  params: { v: { description: anything } }\n  expression: "{v: $v, n: name}"\n');
  for (const v of ['secret', '@', "') || secret || ('", '`"x"`', '$v', '{a: secret}']) {
    const { map } = manifest('inject', `{ mapping: echo.value, with: { v: ${JSON.stringify(v)} } }`)();
    t.same(map(ANSWER), { v, n: 'Lamp' }, `value ${v}`);
  }
  const { map } = manifest('object', '{ mapping: echo.value, with: { v: { path: secret } } }')();
  t.same(map(ANSWER), { v: { path: 'secret' }, n: 'Lamp' }, 'an object stays an object');
});

t.test('a bad mapping file fails the load naming the mapping', async (t) => {
  const cases: [string, RegExp][] = [
    ['expression: "{a: $nope}"', /\$nope is neither a parameter nor a data name/],
    ['params: { p: { description: unused } }\n  expression: name', /declares "p" but the expression never reads \$p/],
    ['expression: "name[?"', /invalid JMESPath/],
    ['expression: "{a: `[1,2,3,4,5,6,7,8,9]`}"', /literal table of 9 entries/],
  ];
  for (const [body, message] of cases) {
    const dir = fs.mkdtempSync(path.join(root, 'bad-'));
    fs.mkdirSync(path.join(dir, 'mappings'));
    fs.writeFileSync(path.join(dir, 'mappings', 'up.yaml'), `broken:\n  description: a broken mapping\n  ${body}\n`);
    const file = path.join(dir, 'x.yaml');
    fs.writeFileSync(
      file,
      'path: /api/test/bad\ncategory: search\nsummary: Broken mapping\nadapter: { kind: http, config: { providers: [{ upstream: local, path: /, result: { mapping: up.broken } }] } }\nexamples: [{ params: {}, expect: {} }]\n',
    );
    t.throws(() => loadManifestFile(file, 'x.yaml'), { name: 'ManifestError', file: path.join('mappings', 'up.yaml'), field: /^broken/, message }, body);
  }
});

t.test('lint limits: a long inline expression or an inline table fails with the way out', async (t) => {
  const check = (name: string, expression: string) => () => checkAdapterConfig(manifest(name, JSON.stringify(expression))().endpoint);
  const long = `{${Array.from({ length: 40 }, (_, i) => `field${i}: f${i}`).join(', ')}}`;
  t.ok(long.length > INLINE_MAX_CHARS);
  t.throws(check('long', long), {
    name: 'ManifestError',
    file: 'api/long.yaml',
    field: 'adapter.config.providers.0.result',
    message: /characters \(limit 400\): move it to a named mapping/,
  });
  const table = `{${'abcdefghi'
    .split('')
    .map((c) => `${c}: '${c.toUpperCase()}'`)
    .join(', ')}}`;
  t.throws(check('hash-table', table), { message: /literal table of 9 entries .* data file/ });
  t.throws(check('json-table', 'items(`{"1": "a", "2": "b", "3": "c", "4": "d", "5": "e", "6": "f", "7": "g", "8": "h", "9": "i"}`)'), {
    message: /literal table of 9 entries/,
  });
  t.throws(check('unbound', '{a: $a}'), { message: /\$a is not bound/ });
  t.doesNotThrow(check('short', "{title: title, kind: 'film', tags: ['a', 'b']}"));
  t.doesNotThrow(
    () => checkAdapterConfig(manifest('named', '{ mapping: shop.item, with: { currency: EUR } }')().endpoint),
    'a named mapping is not held to the inline limits',
  );
});

t.test('the compiled registry follows an edited mapping or data file', async (t) => {
  const dir = fs.mkdtempSync(path.join(root, 'compiled-'));
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  put('mappings/up.yaml', 'one:\n  description: one mapping\n  data: { t: data/t.yaml }\n  expression: "{n: name, t: $t}"\n');
  put('mappings/data/t.yaml', 'a: 1\n');
  put(
    'api/x.yaml',
    'path: /api/test/x\ncategory: search\nsummary: Compiled mapping\nadapter: { kind: http, config: { providers: [{ upstream: local, path: /, result: { mapping: up.one } }] } }\nexamples: [{ params: {}, expect: {} }]\n',
  );
  const cache = path.join(dir, 'cache', 'registry.json');
  const resultOf = () => (loadCompiledCatalog(dir, cache).endpoints[0].adapter.config.providers as { result: ResolvedMapping }[])[0].result;
  t.match(resultOf(), { expression: '{n: name, t: $t}', variables: { t: { a: 1 } } });
  put('mappings/up.yaml', 'one:\n  description: one mapping\n  data: { t: data/t.yaml }\n  expression: "{name: name, t: $t}"\n');
  t.equal(resultOf().expression, '{name: name, t: $t}', 'an edited mapping is re-read');
  put('mappings/data/t.yaml', 'a: 2\nb: 3\n');
  t.same(resultOf().variables, { t: { a: 2, b: 3 } }, 'an edited data file is re-read');
});

t.test('a let inside a named mapping still reads its parameters, whatever their value', async (t) => {
  // with the parameters bound in an outer `let`, the interpreter refused a falsy one read in an inner scope
  const map = compileMapping({ mapping: 'shop.flags', expression: 'let $x = name in [$x, $on, $n, $none]', variables: { on: false, n: 0, none: null } });
  t.same(map(ANSWER), ['Lamp', false, 0, null]);
  const shadowed = compileMapping({ mapping: 'shop.shadow', expression: '[$v, let $v = name in $v]', variables: { v: 'outer' } });
  t.same(shadowed(ANSWER), ['outer', 'Lamp'], 'an inner let binding the same name wins inside it');
});

t.test('a mapping opens a variable scope only for the per-call variables it reads', async (t) => {
  // each scope costs the interpreter a new runtime with its function table, per evaluation
  const interpreter = TreeInterpreter as unknown as { withScope(scope: object): unknown };
  const withScope = interpreter.withScope;
  let scopes = 0;
  interpreter.withScope = function (this: unknown, scope: object) {
    scopes++;
    return withScope.call(this, scope);
  };
  t.teardown(() => void (interpreter.withScope = withScope));
  const count = (run: () => unknown) => {
    scopes = 0;
    const result = run();
    return { result, scopes };
  };
  const params = { params: { id: 'EUR' } };
  t.same(
    count(() => compileMapping('name')(ANSWER, params)),
    { result: 'Lamp', scopes: 0 },
    '$params not read: none',
  );
  t.same(
    count(() => compileMapping('prices[?currency == $params.id] | [0].amount')(ANSWER, params)),
    { result: 12, scopes: 1 },
    '$params read: one',
  );
  const named = manifest('scopes', '{ mapping: shop.item, with: { currency: EUR } }')().map;
  t.same(
    count(() => named(ANSWER, params)),
    { result: { name: 'Lamp', price: 12, currency: 'EUR', digits: 2, status: 'sold out' }, scopes: 1 },
    'named: only its own inner let',
  );
});
