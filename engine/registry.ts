import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ManifestError, describe } from './manifest/load.js';
import type { Endpoint } from './manifest/types.js';
import { ADAPTERS } from './adapters/index.js';
import type { AdapterKind, AdapterSetup, EndpointHandler } from './adapters/types.js';
import { EndpointRouter } from './router.js';
import { validatorFor } from './params.js';

/** An endpoint ready to serve: its handler, or the reason it is unavailable. */
export interface Route {
  endpoint: Endpoint;
  handler?: EndpointHandler;
  unavailable?: string;
}

export interface Registry {
  routes: Route[];
  byId: Map<string, Route>;
  router: EndpointRouter;
}

const configAjv = new Ajv({ strict: false, useDefaults: true });
addFormats.default(configAjv);
const configValidators = new Map<string, ReturnType<typeof configAjv.compile>>();

/** Check a manifest's adapter section against the kind's own schema (boot and lint). */
export function checkAdapterConfig(endpoint: Endpoint): AdapterKind {
  const kind = ADAPTERS.get(endpoint.adapter.kind);
  if (!kind) throw new ManifestError(endpoint.file, 'adapter.kind', `unknown adapter kind "${endpoint.adapter.kind}" (known: ${[...ADAPTERS.keys()].join(', ')})`);
  let validate = configValidators.get(kind.kind);
  if (!validate) {
    validate = configAjv.compile(kind.configSchema);
    configValidators.set(kind.kind, validate);
  }
  if (!validate(endpoint.adapter.config)) {
    const [field, problem] = describe(validate.errors![0]);
    throw new ManifestError(endpoint.file, `adapter.config${field ? `.${field}` : ''}`, problem);
  }
  return kind;
}

export type SetupFactory = (endpoint: Endpoint) => AdapterSetup;

export function buildRegistry(endpoints: Endpoint[], setupFor: SetupFactory): Registry {
  const routes = endpoints.map((endpoint): Route => {
    const kind = checkAdapterConfig(endpoint);
    validatorFor(endpoint);
    const setup = setupFor(endpoint);
    const unavailable = missingRequirement(endpoint, setup) ?? kind.unavailable?.(endpoint.adapter.config, setup);
    if (unavailable) return { endpoint, unavailable };
    return { endpoint, handler: kind.create(endpoint.adapter.config, setup) };
  });
  return { routes, byId: new Map(routes.map((r) => [r.endpoint.id, r])), router: new EndpointRouter(endpoints) };
}

function missingRequirement(endpoint: Endpoint, setup: AdapterSetup): string | undefined {
  const unset = endpoint.requires.env.filter((name) => setup.config.env[name] === undefined);
  if (unset.length) return `${unset.join(', ')} not set`;
  const env = setup.config.env;
  const badOverride = endpoint.requires.bin.map((bin) => [overrideVar(bin), env[overrideVar(bin)]]).find(([, value]) => value && !executable(value));
  if (badOverride) return `${badOverride[0]} (${badOverride[1]}) is not an executable`;
  const bins = endpoint.requires.bin.filter((bin) => !onPath(bin, env));
  if (bins.length) return `${bins.join(', ')} not installed`;
  return undefined;
}

const pathCache = new Map<string, boolean>();

/**
 * Is an executable available: named by its override variable (`yt-dlp` → YTDLP_PATH,
 * `ffmpeg` → FFMPEG_PATH) when that is set, else found on PATH?
 */
export function onPath(bin: string, env: Readonly<Record<string, string>>): boolean {
  const override = env[overrideVar(bin)];
  if (override) return executable(override);
  const key = `${bin}\0${env.PATH ?? ''}`;
  let found = pathCache.get(key);
  if (found === undefined) {
    const dirs = (env.PATH ?? process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
    found = path.isAbsolute(bin) ? executable(bin) : dirs.some((dir) => executable(path.join(dir, bin)));
    pathCache.set(key, found);
  }
  return found;
}

/** The variable that names a binary's location: `yt-dlp` → YTDLP_PATH. */
const overrideVar = (bin: string) => `${bin.replace(/[^A-Za-z0-9]/g, '').toUpperCase()}_PATH`;

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
