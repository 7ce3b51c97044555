/**
 * Key management over HTTP: POST/GET /api/admin/keys, PUT and DELETE /api/admin/keys/:id,
 * built-in routes with `auth: admin` (Authorization: Bearer $ADMIN_TOKEN, checked by
 * the pipeline before the body is read; 403 forbidden otherwise). API keys play no
 * part here: the engine does not ask for one on these routes.
 */
import type { KeyStore } from '../../platform/auth/key-store.js';
import { json } from '../../contract/call.js';
import { parseKeyFields, parseRotation, KEY_FIELDS_SCHEMA } from '../../platform/auth/key-rules.js';
import { notFound } from '../../core/errors.js';
import { builtin, type Builtin } from '../builtin.js';

export const ADMIN_KEYS_PATH = '/api/admin/keys';

/** Key bodies are a few fields and at most two lists of 100 short entries: far below BODY_MAX_BYTES. */
const KEY_BODY_BYTES = 16 * 1024;

const stringList = { type: ['array', 'null'], items: { type: 'string' } };
const KEY_RECORD = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    tier: { type: 'string' },
    label: { type: ['string', 'null'] },
    note: { type: ['string', 'null'] },
    rpm: { type: ['integer', 'null'], description: "Requests per minute; null: the tier's" },
    daily: { type: ['integer', 'null'], description: "Requests per UTC day; null: the tier's" },
    expiresAt: { type: ['string', 'null'], format: 'date-time' },
    allow: { ...stringList, description: 'Categories and endpoint path patterns the key may call; null: every endpoint' },
    ips: { ...stringList, description: 'Addresses and CIDR blocks the key may be used from; null: anywhere' },
    createdAt: { type: 'string' },
    revokedAt: { type: ['string', 'null'] },
    lastUsedAt: { type: ['string', 'null'], description: 'Written at most once a minute per key and instance' },
  },
};

export function keyBuiltins({ store }: { store: KeyStore }): Builtin[] {
  return [
    builtin({
      method: 'POST',
      path: ADMIN_KEYS_PATH,
      auth: 'admin',
      summary:
        'Create an API key (shown once): JSON body {"tier", "label", "note", "rpm", "daily", "expires_at", "allow", "ips"}, all optional; an unknown field is 400 naming it',
      jsonBody: KEY_BODY_BYTES,
      result: { type: 'object', properties: { ...KEY_RECORD.properties, key: { type: 'string' } } },
      async handle({ body = {} }) {
        return json(await store.create(parseKeyFields(body)));
      },
    }),
    builtin({
      method: 'PUT',
      path: `${ADMIN_KEYS_PATH}/:id`,
      auth: 'admin',
      summary: `Change a key's rules, tier, label or note: the fields sent change (null clears one), the others stay; in every process on its next request. Fields: ${Object.keys(KEY_FIELDS_SCHEMA.properties as object).join(', ')}`,
      jsonBody: KEY_BODY_BYTES,
      result: KEY_RECORD,
      async handle({ pathParams, body = {} }) {
        const updated = await store.update(pathParams.id, parseKeyFields(body));
        if (!updated) throw notFound(`No API key with id ${pathParams.id}`);
        return json(updated);
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
      method: 'POST',
      path: `${ADMIN_KEYS_PATH}/:id/rotate`,
      auth: 'admin',
      summary:
        'Give a key a new secret (shown once), keeping its id, rules and usage: JSON body {"grace_seconds": 86400} keeps the previous secret working that long (default 0: refused at once; at most 30 days)',
      jsonBody: KEY_BODY_BYTES,
      result: { type: 'object', properties: { ...KEY_RECORD.properties, key: { type: 'string' }, previousValidUntil: { type: ['string', 'null'] } } },
      async handle({ pathParams, body = {} }) {
        const rotated = await store.rotate(pathParams.id, parseRotation(body));
        if (!rotated) throw notFound(`No live API key with id ${pathParams.id}`);
        return json(rotated);
      },
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
