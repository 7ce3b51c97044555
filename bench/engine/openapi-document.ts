import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * What the first GET /openapi.json costs with the full registry (build, serialise,
 * gzip; routes.ts keeps the result), in a fresh process that run.ts starts. Prints
 * one JSON line.
 */
const { createEngine } = await import('../../engine/app/app.js');
const { loadConfig } = await import('../../engine/platform/config.js');
const { silentLogger } = await import('../../engine/platform/log.js');
const { buildOpenApi } = await import('../../engine/pipeline/discovery/openapi.js');
const { makeAsset } = await import('../../engine/pipeline/discovery/asset.js');
const config = loadConfig({ LOG_REQUESTS: '0', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-openapi-')), PATH: process.env.PATH ?? '' });
const engine = createEngine({ config, logger: silentLogger });
const started = performance.now();
const doc = makeAsset('application/json', Buffer.from(JSON.stringify(buildOpenApi(engine.registry, config))));
console.log(
  JSON.stringify({
    openapiMs: performance.now() - started,
    openapiBytes: doc.body.length,
    openapiGzipBytes: doc.gzip!.length,
    openapiOperations: Object.values(JSON.parse(doc.body.toString()).paths as Record<string, object>).reduce((n, item) => n + Object.keys(item).length, 0),
  }),
);
await engine.close();
// timers of the limiter or cache must not keep a measuring process alive
process.exit(0);
