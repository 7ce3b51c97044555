/**
 * GET /api/admin/usage: requests per key, endpoint and UTC day, as counted by every
 * instance into the shared database (engine/db/usage.ts), with the sums per key, per
 * endpoint and per day. `auth: admin` (Authorization: Bearer $ADMIN_TOKEN), like key
 * management: it names every key's traffic.
 */
import { json } from '../adapters/types.js';
import { TEST_KEY_ID } from '../auth/authenticate.js';
import type { KeyStore } from '../auth/key-store.js';
import type { UsageCounter } from '../db/usage.js';
import { invalidParameter } from '../errors.js';
import { builtin, type Builtin } from '../pipeline/builtin.js';

export const ADMIN_USAGE_PATH = '/api/admin/usage';
export const MAX_USAGE_LIMIT = 10_000;

const DAY = { type: 'string', format: 'date', description: 'UTC day, YYYY-MM-DD' };
const requests = { type: 'integer', minimum: 0 };
const keyFields = {
  key_id: { type: 'string' },
  tier: { type: ['string', 'null'], description: 'null for a key no longer in the key table' },
  label: { type: ['string', 'null'] },
};

export function usageBuiltins({ usage, store }: { usage: UsageCounter; store: KeyStore }): Builtin[] {
  return [
    builtin({
      method: 'GET',
      path: ADMIN_USAGE_PATH,
      auth: 'admin',
      summary: 'Requests per key, endpoint and UTC day from every instance, with sums per key, endpoint and day; filters key, endpoint, from, to, limit',
      query: {
        key: { description: 'Only this key id (as GET /api/admin/keys lists it; `test` is the shared test key)', schema: { type: 'string', maxLength: 200 } },
        endpoint: {
          description: 'Only this endpoint: `GET /api/fun/quote`, or a path alone (`/api/fun/quote`) for every method of it',
          schema: { type: 'string', maxLength: 500 },
        },
        from: { description: 'First UTC day, YYYY-MM-DD (inclusive)', schema: { type: 'string', format: 'date' } },
        to: { description: 'Last UTC day, YYYY-MM-DD (inclusive)', schema: { type: 'string', format: 'date' } },
        limit: {
          description: `Most rows, and most entries in each of by_key, by_endpoint and by_day (largest first); totals cover every matching row`,
          schema: { type: 'integer', minimum: 1, maximum: MAX_USAGE_LIMIT, default: 1000 },
        },
      },
      result: {
        type: 'object',
        required: ['from', 'to', 'total', 'truncated', 'rows', 'by_key', 'by_endpoint', 'by_day'],
        properties: {
          from: { ...DAY, type: ['string', 'null'] },
          to: { ...DAY, type: ['string', 'null'] },
          total: { ...requests, description: 'Requests matching the filters' },
          truncated: { type: 'boolean', description: 'More rows matched than limit' },
          rows: {
            type: 'array',
            description: 'Newest day first',
            items: {
              type: 'object',
              required: ['key_id', 'endpoint', 'day', 'requests'],
              properties: { key_id: { type: 'string' }, endpoint: { type: 'string' }, day: DAY, requests },
            },
          },
          by_key: { type: 'array', items: { type: 'object', required: ['key_id', 'tier', 'label', 'requests'], properties: { ...keyFields, requests } } },
          by_endpoint: { type: 'array', items: { type: 'object', required: ['endpoint', 'requests'], properties: { endpoint: { type: 'string' }, requests } } },
          by_day: { type: 'array', items: { type: 'object', required: ['day', 'requests'], properties: { day: DAY, requests } } },
        },
      },
      async handle({ query }) {
        const filter = query as { key?: string; endpoint?: string; from?: string; to?: string; limit: number };
        if (filter.from && filter.to && filter.from > filter.to) throw invalidParameter('to', `must not be before from (${filter.from})`);
        // this instance's waiting counts first; other instances' arrive within their flush interval (about a second)
        await usage.flush();
        const [report, keys] = await Promise.all([usage.report({ ...filter, keyId: filter.key }), store.list()]);
        const byId = new Map(keys.map((k) => [k.id, k]));
        const keyOf = (keyId: string) =>
          keyId === TEST_KEY_ID ? { tier: 'test', label: null } : { tier: byId.get(keyId)?.tier ?? null, label: byId.get(keyId)?.label ?? null };
        return json({
          from: filter.from ?? null,
          to: filter.to ?? null,
          total: report.total,
          truncated: report.truncated,
          rows: report.rows.map((r) => ({ key_id: r.keyId, endpoint: r.endpoint, day: r.day, requests: r.count })),
          by_key: report.byKey.map((r) => ({ key_id: r.keyId, ...keyOf(r.keyId), requests: r.count })),
          by_endpoint: report.byEndpoint.map((r) => ({ endpoint: r.endpoint, requests: r.count })),
          by_day: report.byDay.map((r) => ({ day: r.day, requests: r.count })),
        });
      },
    }),
  ];
}
