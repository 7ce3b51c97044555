/**
 * The Manifold client typed for this checkout's endpoints: run `npm run client` first
 * (it writes schema.d.ts beside this file from /openapi.json; not committed, as it
 * changes with every manifest). See README, "Typed client".
 */
import type { Client } from 'openapi-fetch';
import type { paths } from './schema.js';
import { manifoldClient, type ManifoldClientOptions } from './client.js';

export type { paths, components, operations } from './schema.js';
export { manifoldClient, type ManifoldClientOptions } from './client.js';

/** A client for every endpoint and built-in route of the server the types were generated from. */
export const createManifoldClient = (options: ManifoldClientOptions): Client<paths> => manifoldClient<paths>(options);
