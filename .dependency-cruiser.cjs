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

const POOL_TASK_TABLE = '^engine/kinds/handlers/pool-tasks\\.ts$';

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-circular',
      comment: 'A circle of imports has no bottom: split the shared part into a module both import.',
      severity: 'error',
      from: { path: '^engine/' },
      // Exception: the code pool's task table (engine/kinds/handlers/pool-tasks.ts) imports the
      // types of the handler modules whose exports it runs by name, and those modules import its
      // runPoolTask, so a call site is typed from the export it names (#18 item 3). The table's
      // imports of them are `import type`, erased when built: no circle through it loads. swc
      // does not tell type-only imports apart, so test/handlers/pool-tasks.test.ts holds that
      // (the table's only run-time import is the code pool, which does not import it).
      to: { circular: true, viaOnly: { pathNot: POOL_TASK_TABLE } },
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
