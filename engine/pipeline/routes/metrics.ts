import { secretEquals } from '../../platform/auth/constant-time.js';
import { bearerToken } from '../../platform/auth/key-from-request.js';
import type { Config } from '../../platform/config.js';
import { ApiError } from '../../core/errors.js';
import { builtin, type Builtin } from '../builtin.js';
import type { EngineMetrics } from '../../platform/metrics/metrics.js';

/**
 * GET /metrics for Prometheus. Open on the listening address by default (scrapers run
 * beside the service); with METRICS_TOKEN set it needs `Authorization: Bearer <token>`,
 * compared in constant time. Not keyed: a scrape never spends an API key's budget.
 */
export function metricsBuiltins(config: Config, metrics: EngineMetrics): Builtin[] {
  const token = config.env.METRICS_TOKEN || undefined;
  return [
    builtin({
      method: 'GET',
      path: '/metrics',
      auth: 'none',
      summary: 'Prometheus text format: requests, durations, upstream outcomes, worker pools, process metrics (Bearer METRICS_TOKEN when set)',
      async handle({ ctx }) {
        if (token) {
          const presented = bearerToken(ctx.get('Authorization'));
          if (presented === undefined || !secretEquals(presented, token))
            throw new ApiError('forbidden', 'This route requires Authorization: Bearer <METRICS_TOKEN>');
        }
        const { body, contentType } = await metrics.scrape();
        return { type: 'binary', contentType, body: Buffer.from(body), headers: { 'Cache-Control': 'no-store' } };
      },
    }),
  ];
}
