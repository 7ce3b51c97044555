import { unavailable } from '../../core/errors.js';
import type { UpstreamRegistry } from '../../catalog/upstreams.js';
import { gatewayFrom, modelRegistry, resolveModel, type ModelKind, type Resolution, type Route } from './registry.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Resolve an alias against engine/features/ai/models.yaml with this server's upstreams and gateway. */
export function routeModel(kind: ModelKind, alias: string, upstreams: UpstreamRegistry, env: Env, pinned?: string): Resolution {
  const registry = modelRegistry();
  return resolveModel(registry, kind, alias, upstreams, pinned, gatewayFrom(registry, env));
}

/** Why calls to `alias` cannot run here (no provider configured, or not an alias at all), or undefined. */
export function modelUnavailable(kind: ModelKind, alias: string, upstreams: UpstreamRegistry, env: Env, pinned?: string): string | undefined {
  return whyUnrouted(alias, routeModel(kind, alias, upstreams, env, pinned));
}

/** Where a call to `alias` goes, or 503 unavailable saying why it cannot run here (the handlers' form of modelUnavailable). */
export function requireRoute(kind: ModelKind, alias: string, upstreams: UpstreamRegistry, env: Env): Route {
  const resolution = routeModel(kind, alias, upstreams, env);
  if ('route' in resolution) return resolution.route;
  throw unavailable(whyUnrouted(alias, resolution)!);
}

function whyUnrouted(alias: string, resolution: Resolution): string | undefined {
  if ('unknown' in resolution) return `model ${alias} is not in the model registry`;
  return 'missing' in resolution ? resolution.missing : undefined;
}

const TYPE = { models: 'chat', images: 'image', videos: 'video' } as const;

/** Every chat, image and video alias with its providers and, here, whether and where it runs (GET /api/ai/models). */
export function listModels(upstreams: UpstreamRegistry, env: Env) {
  const registry = modelRegistry();
  const gateway = gatewayFrom(registry, env);
  return (['models', 'images', 'videos'] as const).flatMap((kind) =>
    Object.entries(registry[kind]).map(([alias, ids]) => {
      const resolution = resolveModel(registry, kind, alias, upstreams, undefined, gateway);
      return {
        model: alias,
        type: TYPE[kind],
        providers: Object.keys(ids),
        available: 'route' in resolution,
        provider: 'route' in resolution ? resolution.route.upstream : null,
        ...('missing' in resolution ? { reason: resolution.missing } : {}),
      };
    }),
  );
}
