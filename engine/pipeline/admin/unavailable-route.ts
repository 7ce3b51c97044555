/**
 * GET /api/admin/unavailable: the endpoints that cannot run on this server, grouped by
 * what would enable them (a variable to set, a tool to install), with each endpoint's
 * reason — the boot log's `unavailable:` line in full, for the console's page. `auth:
 * admin`: it tells which providers a host has configured.
 */
import { json } from '../../contract/call.js';
import type { EndpointRegistry } from '../endpoint-registry.js';
import { groupUnavailable } from '../../platform/settings/unavailable-summary.js';
import { builtin, type Builtin } from '../builtin.js';

export const ADMIN_UNAVAILABLE_PATH = '/api/admin/unavailable';

export function unavailableBuiltins({ registry }: { registry: EndpointRegistry }): Builtin[] {
  return [
    builtin({
      method: 'GET',
      path: ADMIN_UNAVAILABLE_PATH,
      auth: 'admin',
      summary:
        'The endpoints that cannot run here (they answer 503 unavailable), grouped by what would enable them: the variables to set or the tools to install, with each endpoint and its reason',
      result: {
        type: 'object',
        required: ['total', 'endpoints', 'groups'],
        properties: {
          total: { type: 'integer', description: 'Unavailable endpoints, each counted once' },
          endpoints: { type: 'integer', description: 'Every endpoint of the catalog' },
          groups: {
            type: 'array',
            description: 'Largest first; an endpoint that any of several steps would enable is in the group of each',
            items: {
              type: 'object',
              required: ['fix', 'variables', 'count', 'endpoints'],
              properties: {
                fix: { type: 'string', description: '`set OPENAI_BASE_URL`, `install yt-dlp and ffmpeg and ffprobe`, or the reason as written' },
                variables: { type: 'array', items: { type: 'string' }, description: 'The settings the fix names (docs/settings.md)' },
                count: { type: 'integer' },
                endpoints: {
                  type: 'array',
                  items: { type: 'object', required: ['id', 'reason'], properties: { id: { type: 'string' }, reason: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
      handle: () => {
        const { total, groups } = groupUnavailable(registry.routes);
        return json({ total, endpoints: registry.routes.length, groups: groups.map((g) => ({ ...g, count: g.endpoints.length })) });
      },
    }),
  ];
}
