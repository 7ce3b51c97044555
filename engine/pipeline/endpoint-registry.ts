import type { ValidateFunction } from 'ajv';
import { ManifestError, describe } from '../catalog/schema-check.js';
import { checkExpressions } from '../catalog/expressions.js';
import type { Endpoint, Requirement } from '../core/manifest-types.js';
import { ADAPTERS } from '../kinds/adapters/index.js';
import type { AdapterKind, AdapterSetup, EndpointHandler } from '../contract/call.js';
import { EndpointRouter } from '../catalog/router.js';
import { validatorFor } from '../catalog/params.js';
import { locate } from '../core/binaries.js';
import { missingPackages } from '../core/packages.js';
import { ajvFor } from '../core/ajv.js';

/** An endpoint ready to serve: its handler, or the reason it is unavailable. */
export interface Route {
  readonly endpoint: Endpoint;
  /** Present when the endpoint can run here. */
  readonly handler?: EndpointHandler;
  /** Why it cannot (a missing variable, binary or upstream). */
  readonly unavailable?: string;
}

export interface EndpointRegistry {
  routes: Route[];
  byId: Map<string, Route>;
  router: EndpointRouter;
  /** Settles when the handlers built at boot (eager) are built; rejects with the first failure. */
  built: Promise<void>;
}

const configValidators = new Map<string, ValidateFunction>();

/** Check a manifest's adapter section against the kind's own schema (boot and lint). */
export function checkAdapterConfig(endpoint: Endpoint): AdapterKind {
  const kind = ADAPTERS.get(endpoint.adapter.kind);
  if (!kind)
    throw new ManifestError(endpoint.file, 'adapter.kind', `unknown adapter kind "${endpoint.adapter.kind}" (known: ${[...ADAPTERS.keys()].join(', ')})`);
  let validate = configValidators.get(kind.kind);
  if (!validate) {
    validate = ajvFor('fill-defaults').compile(kind.configSchema);
    configValidators.set(kind.kind, validate);
  }
  if (!validate(endpoint.adapter.config)) {
    const [field, problem] = describe(validate.errors![0]);
    throw new ManifestError(endpoint.file, `adapter.config${field ? `.${field}` : ''}`, problem);
  }
  // long inline JMESPath and literal tables fail here, with the way out in the message
  const expression = checkExpressions(kind.configSchema, endpoint.adapter.config);
  if (expression) throw new ManifestError(endpoint.file, `adapter.config.${expression[0]}`, expression[1]);
  endpoint.cost ??= kind.cost;
  const failed = kind.verify?.(endpoint.adapter.config);
  if (failed) throw new ManifestError(endpoint.file, `adapter.config.${failed[0]}`, failed[1]);
  return kind;
}

export type SetupFactory = (endpoint: Endpoint) => AdapterSetup;

/**
 * Boot checks every manifest (or trusts the compiled registry, whose adapter configs
 * were checked when it was compiled: `checked`). Each route works out whether it is
 * available when first asked (the listing, its first call), builds its handler on its
 * first call and compiles its param validator on its first request: a process serves
 * few of ~1,500 endpoints, and readying all of them would cost boot time. `eager`
 * readies everything now, so `npm run lint:endpoints` reports any failure.
 */
export function buildEndpointRegistry(endpoints: Endpoint[], setupFor: SetupFactory, options: { eager?: boolean; checked?: boolean } = {}): EndpointRegistry {
  const builds: Promise<EndpointHandler>[] = [];
  const routes = endpoints.map((endpoint): Route => {
    const kind = options.checked ? ADAPTERS.get(endpoint.adapter.kind)! : checkAdapterConfig(endpoint);
    if (options.eager) validatorFor(endpoint);
    return lazyRoute(endpoint, kind, setupFor(endpoint), options.eager ? builds : undefined);
  });
  return {
    routes,
    byId: new Map(routes.map((r) => [r.endpoint.id, r])),
    router: new EndpointRouter(endpoints),
    built: Promise.all(builds).then(() => undefined),
  };
}

/** A route that decides its availability when first asked; with `builds` (eager) it decides and builds now. */
function lazyRoute(endpoint: Endpoint, kind: AdapterKind, setup: AdapterSetup, builds?: Promise<EndpointHandler>[]): Route {
  let decided = false;
  let unavailable: string | undefined;
  let handler: EndpointHandler | undefined;
  const decide = () => {
    if (decided) return;
    decided = true;
    unavailable = unavailableReason(endpoint, kind, setup);
    if (unavailable) return;
    const create = () => kind.create(endpoint.adapter.config, setup);
    if (!builds) return void (handler = onFirstCall(create));
    const built = Promise.resolve().then(create);
    builds.push(built);
    handler = onFirstCall(() => built);
  };
  if (builds) decide();
  return {
    endpoint,
    get unavailable() {
      decide();
      return unavailable;
    },
    get handler() {
      decide();
      return handler;
    },
  };
}

/** The handler, built by the first call; later calls go straight to it. */
function onFirstCall(create: () => EndpointHandler | Promise<EndpointHandler>): EndpointHandler {
  let handler: EndpointHandler | undefined;
  let building: Promise<EndpointHandler> | undefined;
  return (call) => {
    if (handler) return handler(call);
    building ??= Promise.resolve()
      .then(create)
      .then((built) => (handler = built));
    return building.then((built) => built(call));
  };
}

/**
 * Why `endpoint` cannot run with `setup` (its manifest's `requires`, then its adapter kind's
 * own check), or undefined when it can. Exported for the settings reference, which asks it
 * under many environments to learn which variables enable which endpoints.
 */
export function unavailableReason(endpoint: Endpoint, kind: AdapterKind, setup: AdapterSetup): string | undefined {
  return missingRequirement(endpoint, setup) ?? kind.unavailable?.(endpoint.adapter.config, setup);
}

function missingRequirement(endpoint: Endpoint, setup: AdapterSetup): string | undefined {
  const env = setup.config.env;
  const { anyOf, npm, ...all } = endpoint.requires;
  return missingAll(all, env) ?? (anyOf && missingAny(anyOf, env)) ?? missingPackages(npm);
}

/** Why `needs` is not met in full, or undefined when it is. */
function missingAll(needs: Requirement, env: Readonly<Record<string, string>>): string | undefined {
  const unset = needs.env.filter((name) => env[name] === undefined);
  if (unset.length) return `${unset.join(', ')} not set`;
  const found = needs.bin.map((bin) => ({ bin, ...locate(bin, env) }));
  const badOverride = found.find((f) => f.override && !f.ok);
  if (badOverride) return `${badOverride.override} (${env[badOverride.override!]}) is not an executable`;
  const missing = found.filter((f) => !f.ok).map((f) => f.bin);
  return missing.length ? `${missing.join(', ')} not installed` : undefined;
}

/** Undefined when one alternative is met; else what to do ("set YOUTUBE_API_KEY or install yt-dlp") and what each lacks. */
export function missingAny(alternatives: Requirement[], env: Readonly<Record<string, string>>): string | undefined {
  const reasons: string[] = [];
  for (const needs of alternatives) {
    const reason = missingAll(needs, env);
    if (!reason) return undefined;
    reasons.push(reason);
  }
  const fixes = alternatives.map((needs) =>
    [needs.env.length ? `set ${needs.env.join(' and ')}` : '', needs.bin.length ? `install ${needs.bin.join(' and ')}` : ''].filter(Boolean).join(' and '),
  );
  return `${fixes.join(' or ')} (${reasons.join('; ')})`;
}
