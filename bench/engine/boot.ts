import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * Boot time with the full registry, in a fresh process (run.ts starts it) so every
 * cache — compiled validators, adapters' data files — is cold, as at `npm start`.
 * Prints one JSON line: module import, then createEngine() on the real endpoints dir
 * (load + validate + expand every manifest, compile params, build adapters), each as
 * wall-clock and CPU time (CPU time holds up when other work shares the machine);
 * then what the first GET /openapi.json costs.
 */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const started = performance.now();
const startedCpu = cpuMs();
const { createEngine } = await import('../../engine/app.js');
const { loadConfig } = await import('../../engine/config.js');
const { silentLogger } = await import('../../engine/log.js');
const imported = performance.now();
const importedCpu = cpuMs();
const config = loadConfig({ LOG_REQUESTS: '0', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-boot-')), PATH: process.env.PATH ?? '' });
const engine = createEngine({ config, logger: silentLogger });
const booted = performance.now();
const bootedCpu = cpuMs();
// what the first GET /openapi.json costs: build, serialise, gzip (routes.ts keeps the result)
const { buildOpenApi } = await import('../../engine/discovery/openapi.js');
const { makeAsset } = await import('../../engine/discovery/asset.js');
const docStarted = performance.now();
const doc = makeAsset('application/json', Buffer.from(JSON.stringify(buildOpenApi(engine.registry, config))));
const docMs = performance.now() - docStarted;
console.log(
  JSON.stringify({
    endpoints: engine.registry.routes.length,
    available: engine.registry.routes.filter((r) => !r.unavailable).length,
    importMs: imported - started,
    importCpuMs: importedCpu - startedCpu,
    createEngineMs: booted - imported,
    createEngineCpuMs: bootedCpu - importedCpu,
    openapiMs: docMs,
    openapiBytes: doc.body.length,
    openapiGzipBytes: doc.gzip!.length,
    openapiOperations: Object.values(JSON.parse(doc.body.toString()).paths as Record<string, object>).reduce((n, item) => n + Object.keys(item).length, 0),
    // node + tsx start-up before this module ran
    processStartMs: started,
  }),
);
await engine.close();
// timers of the limiter or cache must not keep a measuring process alive
process.exit(0);
