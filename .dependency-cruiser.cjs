/**
 * The engine's layers, bottom to top. A module may import from its own layer and the
 * layers below it, never from a layer above, and no import may close a circle.
 * `npm run lint:deps` checks this (CI runs it); docs/contributing/architecture.md draws it.
 *
 *   core      pure utilities and the manifest's data types: no engine import at all
 *   platform  services every request may use: configuration, settings, logging, keys,
 *             limits, database, file storage, the HTTP client and SSRF guard, Redis,
 *             the result cache, metrics, readiness, tracing, worker pools
 *   catalog   reading the declarations: manifests, upstreams, mappings, parameter
 *             validation, the route table
 *   contract  what an endpoint implementation receives and returns (Call, Output,
 *             AdapterSetup, FileOutput). It sits above the services and the catalog
 *             because a call names them (the HTTP client, the file store, the
 *             endpoint); everything that implements endpoints sits above it.
 *   features  libraries behind endpoints: effects, media, speech, OCR, translation, AI, …
 *   kinds     the adapter kinds and the code handlers they dispatch to
 *   pipeline  the request path and the built-in routes: the endpoint registry,
 *             admission, dispatch, the envelope, async jobs, discovery, admin
 *   app       building, starting and stopping an engine (app.ts, main.ts)
 */
const LAYERS = ['core', 'platform', 'catalog', 'contract', 'features', 'kinds', 'pipeline', 'app'];

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `${layer}-imports-upward`,
  comment: `engine/${layer} may import only ${LAYERS.slice(0, i + 1).join(', ')}`,
  severity: 'error',
  from: { path: `^engine/${layer}/` },
  to: { path: `^engine/(${LAYERS.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-circular',
      comment: 'A circle of imports has no bottom: split the shared part into a module both import.',
      severity: 'error',
      from: { path: '^engine/' },
      to: { circular: true },
    },
    {
      name: 'engine-is-layered',
      comment: `Every engine module lives in one of the layers: ${LAYERS.join(', ')}.`,
      severity: 'error',
      from: { path: '^engine/', pathNot: `^engine/(${LAYERS.join('|')})/` },
      to: {},
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API dependency-cruiser can load; swc parses the sources.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', 'params\\.generated\\.ts$'] },
  },
};
