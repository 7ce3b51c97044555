import type { Context } from 'koa';
import type { Output } from '../contract/call.js';
import { authenticateKey, missingApiKey, type AuthDeps, type Principal } from '../platform/auth/authenticate.js';
import { keyBeforeBody } from '../platform/auth/key-from-request.js';
import { requireAdminToken } from './admin/admin-token.js';
import type { Config } from '../platform/config.js';
import type { HttpMethod } from '../core/manifest-types.js';
import type { Routable } from '../catalog/router.js';
import { validateQuery, type QueryParamSpec } from '../catalog/params.js';
import { admit, type AdmitDeps } from './admit.js';
import type { BodyParsers } from './body.js';
import { respond } from './respond.js';
import type { SuccessEnvelope } from './envelope.js';

/**
 * Built-in routes (health, admin, hosted files, discovery, docs, gallery, checkapikey)
 * are declared as data, like manifest endpoints, and served by the same dispatcher
 * (pipeline/dispatch.ts): one router with one 405 decision, the same error and
 * success envelopes (respond), keys checked before bodies, the same rate limits.
 * The listing and the OpenAPI document are generated from the same table.
 */
export type BuiltinAuth = 'none' | 'key' | 'admin';

export interface BuiltinCall {
  ctx: Context;
  /** `:name` segments of the path, decoded. */
  pathParams: Record<string, string>;
  /** The caller's key (`auth: key` routes). */
  principal?: Principal;
  /** The parsed JSON body (routes with `jsonBody`). */
  body?: unknown;
  /** The declared query parameters (routes with `query`), validated, defaults filled in. */
  query: Record<string, unknown>;
}

export interface Builtin extends Routable {
  method: HttpMethod;
  path: string;
  aliases: readonly string[];
  /** none: anyone, no budget (health, docs, files); key: an API key, counted against its budget; admin: ADMIN_TOKEN. */
  auth: BuiltinAuth;
  summary: string;
  /** JSON schema of `result` in the success envelope; absent for pages, assets, files and /health. */
  result?: Record<string, unknown>;
  /** Query parameters it takes: validated before the handler runs (400 naming the parameter) and documented. */
  query?: Readonly<Record<string, QueryParamSpec>>;
  /** Takes a JSON body of at most this many bytes. */
  jsonBody?: number;
  /** Error statuses of its own beyond those of its auth and query (404 for an id that names nothing, 409 …): documented in the OpenAPI document. */
  errors?: readonly number[];
  /** Left out of the listing and the OpenAPI document (the docs' and gallery's own assets). */
  hidden?: boolean;
  /**
   * The answer: an Output written by the engine (the JSON envelope, bytes, a stored file,
   * a redirect), or nothing when the handler wrote a cacheable asset itself (sendAsset).
   */
  handle(call: BuiltinCall): Output | void | Promise<Output | void>;
}

/** A built-in route; `aliases` default to none. */
export const builtin = (route: Omit<Builtin, 'aliases'> & { aliases?: readonly string[] }): Builtin => ({ aliases: [], ...route });

export interface BuiltinDeps extends AdmitDeps {
  config: Config;
  /** The engine's success envelope, made once (createEngine). */
  envelope: SuccessEnvelope;
  auth: AuthDeps;
  bodies: BodyParsers;
}

/** Serve one built-in: its auth (before any body), its JSON body if it takes one, its handler, the answer. */
export async function runBuiltin(ctx: Context, route: Builtin, pathParams: Record<string, string>, deps: BuiltinDeps): Promise<void> {
  let principal: Principal | undefined;
  if (route.auth === 'admin') requireAdminToken(ctx.get('Authorization'), deps.config.adminToken);
  else if (route.auth === 'key') {
    const presented = keyBeforeBody(ctx);
    if (presented === undefined) throw missingApiKey();
    principal = await authenticateKey(presented, deps.auth);
    const admitted = admit(ctx, deps, principal, `${route.method} ${route.path}`);
    if (admitted) await admitted;
  }
  let body: unknown;
  if (route.jsonBody !== undefined) {
    const parsing = deps.bodies.parse(ctx, { body: ['json'], limits: { bodyBytes: route.jsonBody } });
    if (parsing) await parsing;
    body = ctx.request.body;
  }
  const query = route.query ? validateQuery(route.query, ctx.query) : {};
  const output = await route.handle({ ctx, pathParams, principal, body, query });
  if (output) {
    const sending = respond(ctx, deps.envelope, output);
    if (sending) await sending;
  }
}
