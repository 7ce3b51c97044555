import type { Endpoint } from './manifest-types.js';

/**
 * The parameters the engine adds to endpoints that no manifest declares, defined here
 * only: their names, schemas, descriptions and which endpoints take them. Validation and
 * collection (catalog/params.ts), the manifest loader (a manifest may not declare one, and
 * its dialects may name the ones its endpoint takes), /openapi.json and the handlers'
 * generated param types all read this table. Each is read from the query or the body,
 * like a declared `in: body` param.
 */

export interface ImplicitParam {
  readonly schema: Readonly<Record<string, unknown>> & { type: string };
  readonly description: string;
  /** Which endpoints take it. */
  readonly takenBy: (endpoint: Pick<Endpoint, 'response' | 'async'>) => boolean;
  /** True when the handler sees it in its params; false when the engine takes it out before (the key, the job's settings). */
  readonly reachesHandler: boolean;
}

/** The API key's parameter (platform/auth/key-from-request.ts reads it; headers are preferred). */
export const API_KEY_PARAM = 'apikey';

export const IMPLICIT_PARAMS = {
  [API_KEY_PARAM]: {
    schema: { type: 'string' },
    description: 'Your API key, when not sent in the X-API-Key or Authorization header (headers keep keys out of URL logs).',
    takenBy: () => true,
    reachesHandler: false,
  },
  stream: {
    schema: { type: 'boolean', default: false },
    description: 'true: answer with the file itself instead of the JSON envelope.',
    takenBy: (endpoint) => endpoint.response === 'streamable',
    reachesHandler: true,
  },
  async: {
    schema: { type: 'boolean', default: false },
    description: 'true: answer 202 with a job id at once and run the call as a job (GET /api/jobs/:id)',
    takenBy: (endpoint) => endpoint.async === true,
    reachesHandler: false,
  },
  callback_url: {
    schema: { type: 'string', format: 'uri', maxLength: 2048 },
    description: 'With async=true: POST the finished job here (JSON, signed X-Manifold-Signature: sha256=HMAC of the body with WEBHOOK_SECRET)',
    takenBy: (endpoint) => endpoint.async === true,
    reachesHandler: false,
  },
} as const satisfies Record<string, ImplicitParam>;

export type ImplicitParamName = keyof typeof IMPLICIT_PARAMS;

export const isImplicitParam = (name: string): name is ImplicitParamName => Object.hasOwn(IMPLICIT_PARAMS, name);

/**
 * The implicit params an endpoint takes besides the key (which authentication reads
 * before validation), with their schemas: what the engine validates and collects.
 */
export function implicitParamsOf(endpoint: Pick<Endpoint, 'response' | 'async'>): readonly (readonly [ImplicitParamName, ImplicitParam])[] {
  // a handful of response and async combinations: each list is made once
  const kind = `${endpoint.response} ${endpoint.async}`;
  let found = byKind.get(kind);
  if (!found) {
    found = (Object.entries(IMPLICIT_PARAMS) as [ImplicitParamName, ImplicitParam][]).filter(
      ([name, param]) => name !== API_KEY_PARAM && param.takenBy(endpoint),
    );
    byKind.set(kind, found);
  }
  return found;
}

const byKind = new Map<string, readonly (readonly [ImplicitParamName, ImplicitParam])[]>();
