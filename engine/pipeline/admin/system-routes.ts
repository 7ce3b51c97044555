/**
 * The service's own routes: GET /health (no key, for load balancers: not an envelope,
 * as docs/using/contract.md shows it), the endpoint listing, and GET /checkapikey — the calling
 * key's own record and usage (never the key or its hash).
 */
import { json } from '../../contract/call.js';
import { TEST_KEY_ID } from '../../platform/auth/authenticate.js';
import { keyBeforeBody } from '../../platform/auth/key-from-request.js';
import { listing } from '../discovery/listing.js';
import type { FeatureContext } from '../feature.js';
import { builtin, type Builtin } from '../builtin.js';
import { diskUsage } from '../../platform/storage/create-file-store.js';
import { ytdlpStatus } from '../../features/media/ytdlp-version.js';

/** What the system routes read of the engine: the feature context, less what they never touch. */
export type SystemDeps = Pick<FeatureContext, 'config' | 'registry' | 'store' | 'usage' | 'quota' | 'files' | 'builtins'>;

export function systemBuiltins(deps: SystemDeps): Builtin[] {
  const { config, registry } = deps;
  return [
    builtin({
      method: 'GET',
      path: '/health',
      auth: 'none',
      summary:
        'Liveness and version: {"status": "ok", "version", "endpoints", "uptime", "storage", "ytdlp"} (not an envelope); `ytdlp.warning` when the downloaders\' yt-dlp is missing or over 60 days old',
      handle: async () => ({
        type: 'binary',
        contentType: 'application/json; charset=utf-8',
        body: Buffer.from(
          JSON.stringify({
            status: 'ok',
            version: config.version,
            endpoints: registry.routes.length,
            uptime: Math.round(process.uptime()),
            storage: diskUsage(deps.files),
            // asked of the binary at most hourly (a run takes a few hundred ms)
            ytdlp: await ytdlpStatus(config.env),
          }),
        ),
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
    builtin({
      method: 'GET',
      path: '/api/admin/endpoints',
      auth: 'key',
      summary: 'Every endpoint with its params, category and availability (and why not), and the built-in routes',
      result: {
        type: 'object',
        properties: {
          total: { type: 'integer' },
          available: { type: 'integer' },
          byCategory: { type: 'object', additionalProperties: { type: 'integer' } },
          endpoints: { type: 'array', items: { type: 'object' } },
          builtins: { type: 'array', items: { type: 'object' } },
        },
      },
      handle: () => json(listing(registry, deps.builtins())),
    }),
    builtin({
      method: 'GET',
      path: '/checkapikey',
      aliases: ['/api/checkapikey'],
      auth: 'key',
      summary:
        "The calling key's own record: tier, label, its rules (own rpm and daily, expiry, allowed endpoints and addresses), budget, remaining requests this minute, requests today and in total, and its daily quota (used, limit, remaining) when it has one",
      result: {
        type: 'object',
        required: ['tier', 'label', 'rules', 'limit_per_minute', 'remaining', 'requests_today', 'requests_total', 'daily_quota', 'created_at'],
        properties: {
          tier: { type: 'string', enum: ['test', 'personal'] },
          label: { type: ['string', 'null'] },
          rules: {
            type: 'object',
            description: "The key's own rules (admin API, npm run keys); null where it has none of its own (all null for the shared test key)",
            required: ['rpm', 'daily', 'expires_at', 'allow', 'ips'],
            properties: {
              rpm: { type: ['integer', 'null'], description: "Its own requests per minute; null: its tier's (limit_per_minute is what applies)" },
              daily: { type: ['integer', 'null'], description: "Its own requests per UTC day; null: its tier's (daily_quota is what applies)" },
              expires_at: { type: ['string', 'null'], format: 'date-time', description: 'From then on every request is 401 key_expired' },
              allow: {
                type: ['array', 'null'],
                items: { type: 'string' },
                description: 'Categories and endpoint path patterns it may call (403 endpoint_not_allowed otherwise)',
              },
              ips: {
                type: ['array', 'null'],
                items: { type: 'string' },
                description: 'Addresses and CIDR blocks it may be used from (403 ip_not_allowed otherwise)',
              },
            },
          },
          limit_per_minute: { type: 'integer' },
          remaining: { type: 'integer', description: 'Requests left in the current 60-second window, this one counted' },
          requests_today: { type: 'integer', description: 'Requests today (UTC), this one counted' },
          requests_total: { type: 'integer' },
          daily_quota: {
            type: ['object', 'null'],
            description:
              "The key's daily quota (its own, else its tier's: TEST_KEY_DAILY, PERSONAL_KEY_DAILY) today, counted exactly across instances; null when it has none. Checking it takes none of it",
            required: ['limit', 'used', 'remaining', 'resets_at'],
            properties: {
              limit: { type: 'integer', description: 'Requests per UTC day' },
              used: { type: 'integer', description: 'Requests to endpoints today (UTC)' },
              remaining: { type: 'integer' },
              resets_at: { type: 'string', format: 'date-time', description: 'Next 00:00 UTC' },
            },
          },
          created_at: { type: ['string', 'null'], format: 'date-time', description: 'null for the shared test key' },
        },
      },
      async handle({ ctx, principal }) {
        const { keyId, tier, rpm } = principal!;
        // the pipeline verified this key a moment ago: the store answers from its cache
        const record = keyId === TEST_KEY_ID ? undefined : await deps.store.verify(keyBeforeBody(ctx)!);
        const [usage, quota] = await Promise.all([deps.usage.totals(keyId), deps.quota.state(principal!)]);
        return json({
          tier,
          label: record?.label ?? null,
          rules: {
            rpm: record?.rpm ?? null,
            daily: record?.daily ?? null,
            expires_at: record?.expiresAt ?? null,
            allow: record?.allow ?? null,
            ips: record?.ips ?? null,
          },
          limit_per_minute: rpm,
          // set by the rate limit this request just passed
          remaining: Number(ctx.response.get('RateLimit-Remaining')),
          requests_today: usage.today,
          requests_total: usage.total,
          daily_quota: quota && { limit: quota.limit, used: quota.used, remaining: quota.remaining, resets_at: quota.resetsAt },
          created_at: record?.createdAt ?? null,
        });
      },
    }),
  ];
}
