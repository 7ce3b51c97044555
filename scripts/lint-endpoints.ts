/**
 * `npm run lint:endpoints`: load every manifest, upstream and template exactly as boot
 * does (meta-schema, families, adapter config schemas, handler construction) and
 * print `file: field: problem` for the first bad one. Exit 1 on a problem.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../engine/platform/config.js';
import { createEngine, ENDPOINTS_DIR } from '../engine/app/app.js';
import { loadUpstreamSpecs } from '../engine/catalog/upstreams.js';
import { silentLogger } from '../engine/platform/log.js';
import type { Route } from '../engine/pipeline/endpoint-registry.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-lint-'));
try {
  const engine = createEngine({ config: loadConfig({ ...process.env, DATA_DIR: dataDir, REDIS_URL: '' }), logger: silentLogger, eager: true });
  await engine.registry.built;
  checkMappingFiles();
  const { routes } = engine.registry;
  checkResultSchemas(routes);
  const unavailable = routes.filter((r) => r.unavailable).length;
  console.log(`lint:endpoints: ${routes.length} endpoints OK (${unavailable} unavailable in this environment)`);
  await engine.close();
  exit(0);
} catch (err) {
  console.error((err as Error).message);
  exit(1);
}

/** Named mappings live in one file per upstream (docs/contributing/adding-an-endpoint.md, "Named mappings"): a file must be named for a known upstream. */
function checkMappingFiles(): void {
  const upstreams = new Set(loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams')).map((spec) => spec.name));
  const files = fs.readdirSync(path.join(ENDPOINTS_DIR, 'mappings')).filter((f) => /\.ya?ml$/.test(f));
  const stray = files.find((f) => !upstreams.has(f.replace(/\.ya?ml$/, '')));
  if (stray) throw new Error(`mappings/${stray}: a mapping file is named for its upstream, and there is no upstream ${stray.replace(/\.ya?ml$/, '')}`);
}

/**
 * Boot serves an endpoint without a resultSchema, but the conformance test fails on it (it
 * checks every example's answer against it, and the OpenAPI document shows it): say so here,
 * naming the file, rather than only at the end of `npm test`.
 */
function checkResultSchemas(routes: readonly Route[]): void {
  const missing = routes.find((route) => !route.endpoint.resultSchema);
  if (missing) {
    throw new Error(
      `${missing.endpoint.file}: resultSchema: missing (the JSON Schema of \`result\`, e.g. { type: string } or { type: object, required: [...] }; test/conformance.test.ts requires one)`,
    );
  }
}

/** Exit explicitly: adapters may hold worker pools open. */
function exit(code: number): never {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}
