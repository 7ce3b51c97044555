/** The compiled registry is reused only while every source is unchanged. */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { loadCompiledCatalog } from '../../engine/pipeline/compiled-catalog.js';
import { tempDataDir } from '../support/serve.js';
import { writeTestEndpoints } from './test-endpoints.js';

t.test('reuse, and invalidation on a changed, added or removed source', async (t) => {
  const { dir } = writeTestEndpoints();
  const loadEndpointsCompiled = (root: string, file: string) => loadCompiledCatalog(root, file).endpoints;
  const cache = path.join(tempDataDir(), 'registry.json');
  const first = loadEndpointsCompiled(dir, cache);
  t.ok(fs.existsSync(cache), 'compiled on first load');

  // a stale-looking cache that is still current must be used as is: mark it and see the mark
  const compiled = JSON.parse(fs.readFileSync(cache, 'utf8'));
  compiled.endpoints[0].summary = 'from the compiled file';
  fs.writeFileSync(cache, JSON.stringify(compiled));
  t.equal(loadEndpointsCompiled(dir, cache)[0].summary, 'from the compiled file', 'reused while sources are unchanged');

  // edit a manifest (size changes): recompiled
  const echo = path.join(dir, 'echo.yaml');
  fs.writeFileSync(echo, fs.readFileSync(echo, 'utf8').replace('Echo a word from a data set', 'Echo a word, edited'));
  const edited = loadEndpointsCompiled(dir, cache);
  t.ok(
    edited.some((e) => e.summary === 'Echo a word, edited'),
    'an edited manifest is re-read',
  );
  t.notOk(edited.some((e) => e.summary === 'from the compiled file'));

  // a new manifest file: recompiled
  fs.writeFileSync(path.join(dir, 'extra.yaml'), fs.readFileSync(path.join(dir, 'needs-env.yaml'), 'utf8').replace('/api/test/needs-env', '/api/test/extra'));
  t.equal(loadEndpointsCompiled(dir, cache).length, first.length + 1, 'a new manifest is picked up');

  // a changed data list behind a family: recompiled
  fs.writeFileSync(
    path.join(dir, 'item.yaml'),
    fs.readFileSync(path.join(dir, 'item.yaml'), 'utf8').replace('{ name: three, n: 3 }', '{ name: three, n: 3 }, { name: four, n: 4 }'),
  );
  t.ok(
    loadEndpointsCompiled(dir, cache).some((e) => e.path === '/api/test/four'),
    'family items follow their source',
  );

  // a changed upstream spec: recompiled
  const upstreams = path.join(dir, 'upstreams');
  fs.mkdirSync(upstreams, { recursive: true });
  const spec = (description: string) => `name: local\ndescription: ${description}\nbaseUrl: { env: LOCAL_BASE_URL }\n`;
  fs.writeFileSync(path.join(upstreams, 'local.yaml'), spec('first'));
  t.equal(loadCompiledCatalog(dir, cache).upstreams[0]?.description, 'first', 'upstream specs are compiled too');
  fs.writeFileSync(path.join(upstreams, 'local.yaml'), spec('second, edited'));
  t.equal(loadCompiledCatalog(dir, cache).upstreams[0]?.description, 'second, edited', 'an edited upstream spec is re-read');
});

t.test('adapter configs are checked while compiling, with their defaults filled in', async (t) => {
  const { dir } = writeTestEndpoints();
  const cache = path.join(tempDataDir(), 'registry.json');
  fs.writeFileSync(
    path.join(dir, 'broken.yaml'),
    fs
      .readFileSync(path.join(dir, 'needs-env.yaml'), 'utf8')
      .replace('/api/test/needs-env', '/api/test/broken')
      .replace(/adapter: .*/, 'adapter: { kind: dataset, config: { nofile: true } }'),
  );
  t.throws(() => loadCompiledCatalog(dir, cache), /broken\.yaml: adapter\.config/);
  t.notOk(fs.existsSync(cache), 'nothing compiled from a broken registry');
});
