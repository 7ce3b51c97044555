/**
 * Key management over HTTP: POST/GET /api/admin/keys, DELETE /api/admin/keys/:id,
 * built-in routes with `auth: admin` (Authorization: Bearer $ADMIN_TOKEN, checked by
 * the pipeline before the body is read; 403 forbidden otherwise). API keys play no
 * part here: the engine does not ask for one on these routes.
 */
import type { KeyStore } from '../auth/key-store.js';
import { json } from '../adapters/types.js';
import { invalidParameter, notFound } from '../errors.js';
import { builtin, type Builtin } from '../pipeline/builtin.js';

export const ADMIN_KEYS_PATH = '/api/admin/keys';

/** Key creation bodies are a tier and a label: far below BODY_MAX_BYTES. */
const KEY_BODY_BYTES = 16 * 1024;

const KEY_RECORD = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    tier: { type: 'string' },
    label: { type: ['string', 'null'] },
    createdAt: { type: 'string' },
    revokedAt: { type: ['string', 'null'] },
  },
};

/** An optional string field of the JSON body. */
function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidParameter(name, 'must be a string');
  return value;
}

export function keyBuiltins({ store }: { store: KeyStore }): Builtin[] {
  return [
    builtin({
      method: 'POST',
      path: ADMIN_KEYS_PATH,
      auth: 'admin',
      summary: 'Create a personal API key (shown once): JSON body {"tier": "personal", "label": "…"}',
      jsonBody: KEY_BODY_BYTES,
      result: { type: 'object', properties: { ...KEY_RECORD.properties, key: { type: 'string' } } },
      async handle({ body: raw = {} }) {
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
          throw invalidParameter('body', 'must be a JSON object like {"tier": "personal", "label": "…"}');
        }
        const body = raw as Record<string, unknown>;
        const created = await store.create({ tier: optionalString(body, 'tier'), label: optionalString(body, 'label') });
        return json({ id: created.id, key: created.key, tier: created.tier, label: created.label, createdAt: created.createdAt });
      },
    }),
    builtin({
      method: 'GET',
      path: ADMIN_KEYS_PATH,
      auth: 'admin',
      summary: 'Every key ever created (never the key or its hash), revoked ones with revokedAt',
      result: { type: 'array', items: KEY_RECORD },
      handle: async () => json(await store.list()),
    }),
    builtin({
      method: 'DELETE',
      path: `${ADMIN_KEYS_PATH}/:id`,
      auth: 'admin',
      summary: 'Revoke a key: refused on the next request, in every process',
      result: KEY_RECORD,
      async handle({ pathParams }) {
        const revoked = await store.revoke(pathParams.id);
        if (!revoked) throw notFound(`No API key with id ${pathParams.id}`);
        return json(revoked);
      },
    }),
  ];
}
