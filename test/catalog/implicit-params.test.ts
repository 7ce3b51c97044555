import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { loadManifestFile } from '../../engine/catalog/load.js';
import { collectParams, paramsSchema } from '../../engine/catalog/params.js';
import { EndpointRouter } from '../../engine/catalog/router.js';
import { API_KEY_PARAM, IMPLICIT_PARAMS } from '../../engine/core/implicit-params.js';
import { loadConfig } from '../../engine/platform/config.js';
import { buildOpenApi } from '../../engine/pipeline/discovery/openapi.js';
import { handlerParamTypes } from '../../scripts/handler-params.js';

/**
 * The implicit parameters (engine/core/implicit-params.ts) are the same everywhere the
 * engine uses them: the loader refuses them in a manifest, validation and collection take
 * them, /openapi.json documents them, the handlers' types get the ones handlers see.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-implicit-'));
t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));

function manifest(name: string, extra: string, params = '  url: { required: true, schema: { type: string }, description: A URL. }') {
  const file = path.join(root, `${name}.yaml`);
  fs.writeFileSync(
    file,
    `path: /api/tools/implicit-${name}
category: tools
summary: Test
${extra}
params:
${params}
adapter: { kind: code, config: { handler: tools/implicit-${name} } }
examples:
  - params: { url: https://example.com/ }
    expect: { result: { type: object } }
`,
  );
  return () => loadManifestFile(file, `${name}.yaml`);
}

t.test('a manifest may not declare an implicit parameter, as a name or an alias', async (t) => {
  for (const name of Object.keys(IMPLICIT_PARAMS)) {
    t.throws(manifest(`own-${name}`, 'response: streamable\nasync: true', `  ${name}: { schema: { type: string }, description: Mine. }`), {
      name: 'ManifestError',
      field: `params.${name}`,
      message: new RegExp(`${name} is a parameter the engine adds`),
    });
    t.throws(
      manifest(`alias-${name}`, '', `  other: { aliases: [${name}], schema: { type: string }, description: Mine. }`),
      { name: 'ManifestError', field: 'params.other' },
      `${name} as an alias`,
    );
  }
});

t.test('each endpoint takes the implicit parameters of its kind, validated and collected', async (t) => {
  const [plain] = manifest('plain', '')();
  const [both] = manifest('both', 'response: streamable\nasync: true')();
  t.same(Object.keys((paramsSchema(plain).properties as object) ?? {}), ['url']);
  const properties = paramsSchema(both).properties as Record<string, unknown>;
  t.same(Object.keys(properties).sort(), ['async', 'callback_url', 'stream', 'url']);
  t.same(properties.callback_url, IMPLICIT_PARAMS.callback_url.schema);
  t.notOk(API_KEY_PARAM in properties, 'the key is read by authentication, not validated as a param');
  const input = { query: { url: 'https://x.test/', stream: 'true' }, body: { async: 'true', callback_url: 'https://hook.test/' }, path: {} };
  t.same(collectParams(both, input), { url: 'https://x.test/', stream: 'true', async: 'true', callback_url: 'https://hook.test/' });
  t.same(collectParams(plain, input), { url: 'https://x.test/' });
});

t.test('/openapi.json documents them from the table, and handler types get only stream', async (t) => {
  const [both] = manifest('documented', 'response: streamable\nasync: true')();
  const registry = {
    routes: [{ endpoint: both }],
    byId: new Map([[both.id, { endpoint: both }]]),
    router: new EndpointRouter([both]),
    built: Promise.resolve(),
  };
  const doc = buildOpenApi(registry, loadConfig({})) as any;
  const parameters = doc.paths['/api/tools/implicit-documented'].get.parameters;
  for (const name of ['stream', 'async', 'callback_url'] as const) {
    const found = parameters.find((p: any) => p.name === name);
    t.same(found?.schema, IMPLICIT_PARAMS[name].schema, name);
    t.equal(found?.description, IMPLICIT_PARAMS[name].description, name);
  }
  t.same(doc.components.parameters.apikey.schema, IMPLICIT_PARAMS[API_KEY_PARAM].schema);
  const types = await handlerParamTypes([both]);
  t.match(types, /stream\?: boolean/);
  t.notMatch(types, /async|callback_url|apikey/);
});
