/**
 * Key management over HTTP: POST/GET /api/admin/keys, DELETE /api/admin/keys/:id,
 * each behind `Authorization: Bearer $ADMIN_TOKEN` (403 forbidden otherwise).
 *
 * Convention: handlers put their data in `ctx.state.result` and never write
 * `ctx.body`; the engine's envelope middleware wraps it as
 * `{status: 200, success: true, creator, result}`, so exactly one place writes
 * envelopes. Failures are thrown as ApiError for the engine's error middleware.
 * These routes are authorised by the admin token alone: the engine must not
 * demand an API key on them.
 */
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { secretEquals } from '../auth/constant-time.js';
import { bearerToken } from '../auth/key-from-request.js';
import type { KeyStore } from '../auth/key-store.js';
import type { Config } from '../config.js';
import { ApiError, invalidParameter, notFound } from '../errors.js';

export interface KeyRoutesDeps {
  store: KeyStore;
  config: Pick<Config, 'adminToken'>;
}

export const ADMIN_KEYS_PATH = '/api/admin/keys';

const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

function requireAdmin(adminToken: string | undefined) {
  return async (ctx: Context, next: Next) => {
    if (!adminToken) throw forbidden('Admin writes are disabled: ADMIN_TOKEN is not set on this server');
    const presented = bearerToken(ctx.get('Authorization'));
    if (presented === undefined || !secretEquals(presented, adminToken)) {
      throw forbidden('This route requires Authorization: Bearer <ADMIN_TOKEN>');
    }
    await next();
  };
}

/** An optional string field of the JSON body. */
function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidParameter(name, 'must be a string');
  return value;
}

export function registerKeyRoutes(router: Router, { store, config }: KeyRoutesDeps): void {
  const admin = requireAdmin(config.adminToken);

  router.post(ADMIN_KEYS_PATH, admin, async (ctx) => {
    const raw: unknown = (ctx.request as { body?: unknown }).body ?? {};
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw invalidParameter('body', 'must be a JSON object like {"tier": "personal", "label": "…"}');
    }
    const body = raw as Record<string, unknown>;
    const created = await store.create({ tier: optionalString(body, 'tier'), label: optionalString(body, 'label') });
    ctx.state.result = {
      id: created.id,
      key: created.key,
      tier: created.tier,
      label: created.label,
      createdAt: created.createdAt,
    };
  });

  router.get(ADMIN_KEYS_PATH, admin, async (ctx) => {
    ctx.state.result = await store.list();
  });

  router.delete(`${ADMIN_KEYS_PATH}/:id`, admin, async (ctx) => {
    const revoked = await store.revoke(ctx.params.id);
    if (!revoked) throw notFound(`No API key with id ${ctx.params.id}`);
    ctx.state.result = revoked;
  });
}
