import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { ROOT } from '../../engine/core/root.js';
import { missingPackages, optionalFeatures, packageInstalled } from '../../engine/core/packages.js';

/**
 * The optional features (optional/*, npm workspaces a host may leave out): an endpoint whose
 * manifest `requires.npm` a package that is not installed is listed unavailable and answers
 * 503, naming the package and the command that installs it.
 */

/** A checkout with two optional features, one package of each installed. */
function checkout(): string {
  const root = tempDataDir('manifold-optional-');
  const write = (file: string, json: object) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), JSON.stringify(json));
  };
  write('package.json', { name: 'checkout' });
  write('optional/browser/package.json', { name: '@x/optional-browser', dependencies: { 'browser-driver': '1', '@scope/browser-fonts': '1' } });
  write('optional/ocr/package.json', { name: '@x/optional-ocr', dependencies: { 'ocr-engine': '1', 'ocr-data': '1' } });
  write('node_modules/browser-driver/package.json', { name: 'browser-driver' });
  write('node_modules/ocr-data/package.json', { name: 'ocr-data' });
  return root;
}

t.test('a package is found where the engine imports it from, by its package.json', async (t) => {
  const where = { root: checkout() };
  t.ok(packageInstalled('browser-driver', where));
  t.notOk(packageInstalled('ocr-engine', where));
  t.notOk(packageInstalled('@scope/browser-fonts', where));
  t.same([...optionalFeatures(where)].sort(), [
    ['@scope/browser-fonts', 'optional/browser'],
    ['browser-driver', 'optional/browser'],
    ['ocr-data', 'optional/ocr'],
    ['ocr-engine', 'optional/ocr'],
  ]);
});

t.test('the reason names each missing package and the command that installs its feature', async (t) => {
  const where = { root: checkout() };
  t.equal(missingPackages(['browser-driver', 'ocr-data'], where), undefined, 'all installed');
  t.equal(missingPackages(['ocr-engine', 'ocr-data'], where), 'npm package ocr-engine not installed (npm install -w optional/ocr)');
  t.equal(
    missingPackages(['ocr-engine', '@scope/browser-fonts'], where),
    'npm packages ocr-engine, @scope/browser-fonts not installed (npm install -w optional/ocr -w optional/browser)',
  );
  t.equal(missingPackages(['left-pad-of-no-feature'], where), 'npm package left-pad-of-no-feature not installed (npm ci)', 'a root dependency');
});

t.test('an endpoint whose package is absent: listed unavailable with the reason, and 503', async (t) => {
  const dir = tempDataDir('manifold-endpoints-');
  fs.mkdirSync(path.join(dir, 'data'));
  fs.writeFileSync(path.join(dir, 'data', 'words.json'), JSON.stringify([{ word: 'alpha' }]));
  const manifest = (name: string, npm: string) => `
path: /api/test/${name}
category: tools
summary: Needs the npm package ${npm}
requires: { npm: [${npm}] }
adapter: { kind: dataset, config: { file: data/words.json } }
examples: [{ params: {}, expect: {} }]
`;
  fs.writeFileSync(path.join(dir, 'absent.yaml'), manifest('absent', 'manifold-package-nobody-installed'));
  fs.writeFileSync(path.join(dir, 'present.yaml'), manifest('present', 'yaml'));
  const served = await serve({}, { endpoints: loadEndpoints(dir) });
  t.teardown(() => served.close());
  const get = async (p: string) => {
    const res = await fetch(`${served.url}${p}${p.includes('?') ? '&' : '?'}apikey=${TEST_KEY}`);
    return { status: res.status, body: await res.json() };
  };

  const absent = await get('/api/test/absent');
  t.equal(absent.status, 503);
  t.match(absent.body, { error: 'unavailable', message: /npm package manifold-package-nobody-installed not installed \(npm ci\)/ });
  const present = await get('/api/test/present');
  t.equal(present.status, 200, 'an installed package (a root dependency) leaves the endpoint available');
  t.match(present.body, { result: { word: 'alpha' } });

  const listing = (await get('/api/admin/endpoints')).body.result.endpoints as { path: string; available: boolean; unavailableReason?: string }[];
  t.match(
    listing.find((e) => e.path === '/api/test/absent'),
    {
      available: false,
      unavailableReason: 'npm package manifold-package-nobody-installed not installed (npm ci)',
    },
  );
  t.match(
    listing.find((e) => e.path === '/api/test/present'),
    { available: true },
  );
});

t.test("this checkout: every requires.npm is an optional feature's, and a full install finds each where the engine imports it", async (t) => {
  const features = optionalFeatures();
  const required = new Map<string, string[]>();
  for (const endpoint of loadEndpoints(path.join(ROOT, 'endpoints')))
    for (const name of endpoint.requires.npm) required.set(name, [...(required.get(name) ?? []), endpoint.path]);
  t.ok(required.size > 0, 'some endpoints need an optional feature');
  for (const [name, paths] of required)
    t.ok(features.has(name), `${name} (${paths.join(', ')}) is in an optional/*/package.json, so the reason can say how to install it`);
  // npm hoists a workspace's packages to node_modules/ unless a version conflicts; nested under
  // optional/NAME/node_modules they would be installed yet not found by the engine's imports
  for (const [name, feature] of features) t.ok(packageInstalled(name), `${name} (${feature}) is installed where the engine finds it`);
});
