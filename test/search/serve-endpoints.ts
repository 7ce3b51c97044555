import path from 'node:path';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadManifestFile } from '../../engine/catalog/load.js';
import { loadUpstreamSpecs } from '../../engine/catalog/upstreams.js';
import type { Endpoint } from '../../engine/core/manifest-types.js';
import { serve, TEST_KEY, type Served as Engine } from '../support/serve.js';

/**
 * Boot an engine serving only the endpoints of some manifest files (relative to
 * endpoints/, optionally narrowed to some paths), optionally with a shorter timeout,
 * for tests that need an upstream to misbehave in ways the manifest examples cannot
 * express (slow answers, broken streams, several calls in a row).
 */
const upstreamSpecs = loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams'));

export interface Served {
  url: string;
  engine: Engine['engine'];
  /** GET with the shared test key, or with `key`. */
  get(route: string, params?: Record<string, string>, key?: string): Promise<Response>;
}

export async function serveEndpoints(
  t: { teardown(fn: () => unknown): void },
  options: { files: string[]; paths?: string[]; env: Record<string, string>; timeoutMs?: number },
): Promise<Served> {
  const endpoints: Endpoint[] = options.files
    .flatMap((rel) => loadManifestFile(path.join(ENDPOINTS_DIR, rel), rel))
    .filter((e) => !options.paths || options.paths.includes(e.path))
    .map((e) => (options.timeoutMs ? { ...e, limits: { ...e.limits, timeoutMs: options.timeoutMs } } : e));
  const served = await serve(options.env, { endpoints, upstreamSpecs });
  t.teardown(() => served.close());
  return {
    url: served.url,
    engine: served.engine,
    get: (route, params = {}, key = TEST_KEY) => fetch(`${served.url}${route}?${new URLSearchParams(params)}`, { headers: { 'x-api-key': key } }),
  };
}
