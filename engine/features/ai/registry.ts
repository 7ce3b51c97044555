import fs from 'node:fs';
import { parseYaml } from '../../core/yaml.js';
import type { UpstreamRegistry } from '../../catalog/upstreams.js';
import { ajvFor } from '../../core/ajv.js';

/**
 * The AI model registry (engine/features/ai/models.yaml): which providers exist, which upstream
 * each one is, and what every model alias is called at each provider. Resolving an
 * alias picks the first provider, in the alias's order of preference, whose upstream
 * is configured in this environment.
 */
export interface ModelRegistry {
  /** `gateway`: the provider serves any alias (LiteLLM, OpenRouter, an Ollama or vLLM front). */
  providers: Record<string, { upstream: string; about: string; gateway?: boolean }>;
  /** Chat model alias -> provider -> provider's model id (insertion order = preference). */
  models: Record<string, Record<string, string>>;
  images: Record<string, Record<string, string>>;
  /** Video model alias -> provider -> id, for the OpenAI-compatible videos API (POST /videos). */
  videos: Record<string, Record<string, string>>;
  reasoning: string[];
}

export type ModelKind = 'models' | 'images' | 'videos';

/** Where one call goes. */
export interface Route {
  upstream: string;
  /** The provider's own model id. */
  model: string;
  /** The alias asked for (or the raw id when it is not an alias). */
  alias: string;
  reasoning: boolean;
}

const idMap = { type: 'object', minProperties: 1, additionalProperties: { type: 'string', minLength: 1 } };
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['providers', 'models', 'images', 'reasoning'],
  properties: {
    providers: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['upstream', 'about'],
        properties: { upstream: { type: 'string' }, about: { type: 'string' }, gateway: { type: 'boolean' } },
      },
    },
    models: { type: 'object', additionalProperties: idMap },
    images: { type: 'object', additionalProperties: idMap },
    videos: { type: 'object', additionalProperties: idMap },
    reasoning: { type: 'array', items: { type: 'string' } },
  },
};

export const MODELS_FILE = new URL('./models.yaml', import.meta.url);

let loaded: ModelRegistry | undefined;

/** The registry, read and checked once per process. */
export function modelRegistry(): ModelRegistry {
  if (!loaded) loaded = parseModelRegistry(fs.readFileSync(MODELS_FILE, 'utf8'));
  return loaded;
}

export function parseModelRegistry(text: string): ModelRegistry {
  const data = parseYaml(text);
  const validate = ajvFor('as-written').compile<ModelRegistry>(schema);
  if (!validate(data)) throw new Error(`models.yaml: ${validate.errors!.map((e) => `${e.instancePath} ${e.message}`).join('; ')}`);
  data.videos ??= {}; // a registry may list no video models
  for (const kind of ['models', 'images', 'videos'] as const) {
    for (const [alias, ids] of Object.entries(data[kind])) {
      for (const provider of Object.keys(ids)) {
        if (!data.providers[provider]) throw new Error(`models.yaml: ${kind}.${alias} names unknown provider ${provider}`);
      }
    }
  }
  return data;
}

/**
 * One gateway in front of every model: an alias that no configured provider of its own
 * serves runs on the gateway's upstream. `AI_GATEWAY=1` makes the `openai` provider
 * (OPENAI_BASE_URL) the gateway, `AI_GATEWAY=<provider>` another one; a provider marked
 * `gateway: true` in models.yaml is one too. On the gateway an alias is called by the id
 * it has at the gateway's own provider when listed, else by its id at the provider named
 * by `AI_GATEWAY_MODEL_IDS` (default `openrouter`: `vendor/model` ids, which OpenRouter and
 * LiteLLM's defaults understand; `alias` sends the alias itself), else by the alias.
 */
export interface Gateway {
  providers: string[];
  ids: string;
}

export function gatewayFrom(registry: ModelRegistry, env: Readonly<Record<string, string | undefined>>): Gateway | undefined {
  const named =
    env.AI_GATEWAY && !['0', 'false', ''].includes(env.AI_GATEWAY) ? (['1', 'true'].includes(env.AI_GATEWAY) ? 'openai' : env.AI_GATEWAY) : undefined;
  const marked = Object.keys(registry.providers).filter((p) => registry.providers[p].gateway);
  const providers = [...(named ? [named] : []), ...marked.filter((p) => p !== named)].filter((p) => registry.providers[p]);
  return providers.length ? { providers, ids: env.AI_GATEWAY_MODEL_IDS || 'openrouter' } : undefined;
}

/** A route for `name`, or why there is none. */
export type Resolution = { route: Route } | { unknown: true } | { missing: string };

/**
 * Resolve a model alias. With `pinned`, only that upstream is used and a name that is
 * not an alias for it passes through as the provider's own model id (OPENAI_MODEL may
 * name any model the server at OPENAI_BASE_URL has).
 */
export function resolveModel(
  registry: ModelRegistry,
  kind: ModelKind,
  name: string,
  upstreams: UpstreamRegistry,
  pinned?: string,
  gateway?: Gateway,
): Resolution {
  const ids = registry[kind][name];
  const reasoning = registry.reasoning.includes(name);
  if (pinned) {
    const provider = Object.keys(ids ?? {}).find((p) => registry.providers[p].upstream === pinned);
    const missing = upstreams.has(pinned) ? upstreams.get(pinned).missing : `unknown upstream ${pinned}`;
    if (missing) return { missing: `${pinned}: ${missing}` };
    return { route: { upstream: pinned, model: provider ? ids[provider] : name, alias: name, reasoning } };
  }
  if (!ids) return { unknown: true };
  const wanted: string[] = [];
  for (const [provider, model] of Object.entries(ids)) {
    const upstream = registry.providers[provider].upstream;
    const missing = upstreams.has(upstream) ? upstreams.get(upstream).missing : `unknown upstream ${upstream}`;
    if (!missing) return { route: { upstream, model, alias: name, reasoning } };
    wanted.push(`${registry.providers[provider].about} (${missing})`);
  }
  for (const provider of gateway?.providers ?? []) {
    const upstream = registry.providers[provider].upstream;
    if (upstreams.unavailable(upstream)) continue;
    const model = ids[provider] ?? (gateway!.ids === 'alias' ? undefined : ids[gateway!.ids]) ?? name;
    return { route: { upstream, model, alias: name, reasoning } };
  }
  return {
    missing: `no provider configured for ${name}; it can run on ${wanted.join(' or ')}${gateway ? '' : ', or on any OpenAI-compatible gateway at OPENAI_BASE_URL with AI_GATEWAY=1'}`,
  };
}
