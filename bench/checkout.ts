import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Endpoint } from '../engine/core/manifest-types.js';
import type { Served } from '../test/support/serve.js';

/**
 * Another checkout's engine, loaded into this process beside this tree's (its own module
 * graph: nothing is shared but node_modules). Benches use it to time a commit's endpoints
 * and this tree's in the same turns, e.g. a worktree made with
 * `git worktree add --detach DIR a1c55fa && ln -s "$PWD/node_modules" DIR/`.
 */
export interface Checkout {
  /** The checkout's endpoints of one directory under its endpoints/ (families expanded). */
  endpoints(dir: string): Endpoint[];
  /** Its engine serving `endpoints`, as test/support/serve.ts serves them there. */
  serve(endpoints: Endpoint[]): Promise<Served>;
}

export async function loadCheckout(root: string): Promise<Checkout> {
  const load = (file: string) => import(pathToFileURL(path.join(root, file)).href);
  const { ENDPOINTS_DIR } = (await load('engine/app/app.ts')) as { ENDPOINTS_DIR: string };
  const { loadEndpoints } = (await load('engine/catalog/load.ts')) as { loadEndpoints(dir: string): Endpoint[] };
  const { serve } = (await load('test/support/serve.ts')) as { serve(env: Record<string, string>, options: { endpoints: Endpoint[] }): Promise<Served> };
  return { endpoints: (dir) => loadEndpoints(path.join(ENDPOINTS_DIR, dir)), serve: (endpoints) => serve({}, { endpoints }) };
}
