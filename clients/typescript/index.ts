/**
 * The Manifold client typed for one server's endpoints (schema.d.ts, from its /openapi.json).
 * In the repository, `npm run client` writes schema.d.ts beside this file (not committed: it
 * changes with every manifest); the published package carries the one build.ts generated.
 */
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.js';
import { manifoldClient, type ManifoldClientOptions } from './client.js';

export type { paths, components, operations } from './schema.js';
export { manifoldClient, type ManifoldClientOptions } from './client.js';

/** A client for every endpoint and built-in route of the server the types were generated from. */
export const createManifoldClient = (options: ManifoldClientOptions): Client<paths> => manifoldClient<paths>(options);
