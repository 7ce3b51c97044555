import { ApiError } from '../../core/errors.js';
import { builtin, type Builtin } from '../builtin.js';
import type { Readiness } from '../../platform/health/readiness.js';

/**
 * GET /health/live and GET /health/ready, for load balancers, orchestrators and the
 * Docker healthcheck (GET /health stays as it was for existing clients: system-routes.ts).
 * Liveness touches nothing: the process answers. Readiness asks every configured
 * dependency (readiness.ts) and answers 503 naming the ones that failed, so traffic
 * leaves an instance that cannot serve it and comes back when it can.
 */
export function healthBuiltins(readiness: Readiness): Builtin[] {
  const noStore = { 'Cache-Control': 'no-store' };
  return [
    builtin({
      method: 'GET',
      path: '/health/live',
      auth: 'none',
      summary: 'Liveness: {"status": "ok"} while the process answers; no dependency is asked (not an envelope)',
      handle: () => ({ type: 'binary', contentType: 'application/json; charset=utf-8', body: Buffer.from('{"status":"ok"}'), headers: noStore }),
    }),
    builtin({
      method: 'GET',
      path: '/health/ready',
      auth: 'none',
      summary: `Readiness: each configured dependency (database, Redis, S3, job queue) answers within HEALTH_CHECK_TIMEOUT_MS: {"status": "ready", "checks": {…}} (not an envelope); otherwise 503 not_ready naming each that failed in details`,
      async handle() {
        const { ready, checks } = await readiness.check();
        if (!ready) {
          const failed = Object.entries(checks).filter(([, result]) => !result.ok);
          throw new ApiError('not_ready', `Not ready: ${failed.map(([name]) => name).join(', ')} did not answer`, {
            details: failed.map(([dependency, result]) => ({ dependency, problem: result.error ?? 'error', ms: result.ms })),
            headers: { ...noStore, 'Retry-After': '5' },
          });
        }
        return {
          type: 'binary',
          contentType: 'application/json; charset=utf-8',
          body: Buffer.from(JSON.stringify({ status: 'ready', checks })),
          headers: noStore,
        };
      },
    }),
  ];
}
