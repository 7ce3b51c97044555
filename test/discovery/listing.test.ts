/** GET /api/admin/endpoints' rows (engine/pipeline/discovery/listing.ts), from a registry of two endpoints. */
import t from 'tap';
import { listing } from '../../engine/pipeline/discovery/listing.js';
import type { EndpointRegistry } from '../../engine/pipeline/endpoint-registry.js';
import type { Endpoint } from '../../engine/core/manifest-types.js';

const endpoint = (path: string, extra: Partial<Endpoint>) =>
  ({
    method: 'GET',
    path,
    aliases: [],
    category: 'tools',
    summary: path,
    adapter: { kind: 'code', config: {} },
    response: 'json',
    params: {},
    async: false,
    alsoGet: false,
    ...extra,
  }) as unknown as Endpoint;

t.test('async: true marks the endpoints that take async=true, so a client can tell them apart', async (t) => {
  const registry = {
    routes: [{ endpoint: endpoint('/api/x/long', { async: true }) }, { endpoint: endpoint('/api/x/quick', {}), unavailable: 'X_KEY not set' }],
  } as unknown as EndpointRegistry;
  const { endpoints, total, available } = listing(registry);
  t.match(endpoints[0], { path: '/api/x/long', async: true, available: true });
  t.notOk('async' in endpoints[1], 'absent on an endpoint without jobs');
  t.match(endpoints[1], { available: false, unavailableReason: 'X_KEY not set' });
  t.same({ total, available }, { total: 2, available: 1 });
});

t.test("resultAlso and dialects are listed as a manifest writes them, so a bot's owner finds /as/<host>'s shapes", async (t) => {
  const registry = {
    routes: [
      {
        endpoint: endpoint('/api/x/remini', {
          resultAlso: [
            { at: ['results'], from: [] },
            { at: ['image_url'], from: ['image_url'] },
          ],
          dialects: { gifted: { shape: 'link' } },
        }),
      },
      { endpoint: endpoint('/api/x/plain', {}) },
    ],
  } as unknown as EndpointRegistry;
  const { endpoints } = listing(registry);
  t.match(endpoints[0], { resultAlso: ['results', 'image_url=image_url'], dialects: { gifted: { shape: 'link' } } });
  t.notOk('resultAlso' in endpoints[1] || 'dialects' in endpoints[1], 'absent where the manifest has none');
});
