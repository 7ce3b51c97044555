import t from 'tap';
import { gatewayFrom, modelRegistry, parseModelRegistry, resolveModel } from '../../engine/features/ai/registry.js';
import { UpstreamRegistry, type UpstreamSpec } from '../../engine/catalog/upstreams.js';

const spec = (name: string, key?: string): UpstreamSpec => ({
  name,
  description: name,
  baseUrl: { env: `${name.toUpperCase()}_BASE_URL`, default: `https://${name}.example/v1` },
  requires: key ? [key] : [],
});
const specs = [spec('openai'), spec('openrouter', 'OPENROUTER_API_KEY'), spec('groq', 'GROQ_API_KEY'), spec('together', 'TOGETHER_API_KEY')];
const upstreams = (env: Record<string, string>) => new UpstreamRegistry(specs, env);

t.test('the shipped registry has the providers and more than 50 aliases', async (t) => {
  const registry = modelRegistry();
  t.same(Object.keys(registry.providers).sort(), ['deepseek', 'gemini', 'groq', 'llamacpp', 'mistral', 'ollama', 'openai', 'openrouter', 'together']);
  t.ok(Object.keys(registry.models).length + Object.keys(registry.images).length >= 50, 'at least 50 aliases');
  for (const family of [
    'gpt-4o',
    'claude-3.5-sonnet',
    'gemini-2.5-pro',
    'llama-3.3-70b',
    'mixtral-8x7b',
    'qwen-2.5-72b',
    'deepseek-r1',
    'phi-4',
    'gemma-3-27b',
    'o3-mini',
  ]) {
    t.ok(registry.models[family], `has ${family}`);
  }
});

t.test("an alias goes to its first configured provider, in the registry's order", async (t) => {
  const registry = modelRegistry();
  const all = upstreams({ GROQ_API_KEY: 'k', TOGETHER_API_KEY: 'k', OPENROUTER_API_KEY: 'k' });
  t.match(resolveModel(registry, 'models', 'llama-3.3-70b', all), { route: { upstream: 'groq', model: 'llama-3.3-70b-versatile', reasoning: false } });
  const noGroq = upstreams({ TOGETHER_API_KEY: 'k' });
  t.match(resolveModel(registry, 'models', 'llama-3.3-70b', noGroq), { route: { upstream: 'together', model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo' } });
  t.match(resolveModel(registry, 'models', 'o3-mini', all), { route: { upstream: 'openai', model: 'o3-mini', reasoning: true } });
});

t.test('no configured provider gives the reason; an unknown alias says so', async (t) => {
  const registry = modelRegistry();
  const none = upstreams({});
  const missing = resolveModel(registry, 'models', 'claude-3.5-sonnet', none);
  t.match(missing, { missing: /no provider configured for claude-3.5-sonnet; it can run on OpenRouter \(OPENROUTER_API_KEY not set\)/ });
  t.same(resolveModel(registry, 'models', 'gpt-99', none), { unknown: true });
  t.same(resolveModel(registry, 'images', 'gpt-4o', none), { unknown: true }, 'chat aliases are not image models');
});

t.test('pinned to one upstream, a non-alias passes through as the model id', async (t) => {
  const registry = modelRegistry();
  const env = upstreams({});
  t.match(resolveModel(registry, 'models', 'llama3.1:8b', env, 'openai'), { route: { upstream: 'openai', model: 'llama3.1:8b' } });
  t.match(resolveModel(registry, 'models', 'gpt-4o', env, 'openai'), { route: { upstream: 'openai', model: 'gpt-4o' } });
  t.match(resolveModel(registry, 'models', 'gpt-4o', env, 'groq'), { missing: /groq: GROQ_API_KEY not set/ });
});

t.test('a registry naming an unknown provider is rejected', async (t) => {
  t.throws(
    () => parseModelRegistry('providers: { a: { upstream: a, about: A } }\nmodels: { m: { b: x } }\nimages: {}\nreasoning: []\n'),
    /models\.m names unknown provider b/,
  );
  t.throws(() => parseModelRegistry('providers: {}\nmodels: { m: {} }\nimages: {}\nreasoning: []\n'), /models\.yaml/);
});

t.test('a gateway serves every alias that has no configured provider of its own', async (t) => {
  const registry = modelRegistry();
  const env = { AI_GATEWAY: '1' };
  const only = upstreams({});
  const gateway = gatewayFrom(registry, env)!;
  t.same(gateway, { providers: ['openai'], ids: 'openrouter' });
  // Claude is listed only at OpenRouter: on the gateway it keeps its vendor/model id
  t.match(resolveModel(registry, 'models', 'claude-3.5-sonnet', only, undefined, gateway), {
    route: { upstream: 'openai', model: 'anthropic/claude-3.5-sonnet', alias: 'claude-3.5-sonnet' },
  });
  // an alias the gateway's provider lists keeps its own id there
  t.match(resolveModel(registry, 'models', 'gpt-4o', only, undefined, gateway), { route: { upstream: 'openai', model: 'gpt-4o' } });
  // a configured provider of the alias's own still comes first
  t.match(resolveModel(registry, 'models', 'llama-3.3-70b', upstreams({ GROQ_API_KEY: 'k' }), undefined, gateway), { route: { upstream: 'groq' } });
  // ids by another provider's naming, or the alias itself
  t.match(resolveModel(registry, 'models', 'llama-3.1-8b', only, undefined, gatewayFrom(registry, { AI_GATEWAY: '1', AI_GATEWAY_MODEL_IDS: 'ollama' })), {
    route: { model: 'llama3.1:8b' },
  });
  t.match(resolveModel(registry, 'models', 'phi-4-mini', only, undefined, gateway), { route: { model: 'phi-4-mini' } }, 'no OpenRouter id: the alias');
  t.match(resolveModel(registry, 'models', 'claude-3.5-sonnet', only, undefined, gatewayFrom(registry, { AI_GATEWAY: '1', AI_GATEWAY_MODEL_IDS: 'alias' })), {
    route: { model: 'claude-3.5-sonnet' },
  });
  t.match(resolveModel(registry, 'images', 'flux-dev', only, undefined, gateway), { route: { upstream: 'openai', model: 'flux-dev' } });
  // unknown aliases stay unknown; no gateway unless asked
  t.same(resolveModel(registry, 'models', 'gpt-99', only, undefined, gateway), { unknown: true });
  t.equal(gatewayFrom(registry, {}), undefined);
  t.equal(gatewayFrom(registry, { AI_GATEWAY: '0' }), undefined);
  // an unconfigured gateway is no route: the reason still names the alias's providers
  t.match(
    resolveModel(
      registry,
      'models',
      'claude-3.5-sonnet',
      new UpstreamRegistry([{ ...spec('openai'), baseUrl: { env: 'OPENAI_BASE_URL' } }], {}),
      undefined,
      gateway,
    ),
    { missing: /no provider configured/ },
  );
});

t.test('a provider entry marked as a gateway is one without AI_GATEWAY', async (t) => {
  const registry = parseModelRegistry(
    'providers: { openai: { upstream: openai, about: A }, litellm: { upstream: openrouter, about: LiteLLM, gateway: true } }\nmodels: { m: { openai: m-at-openai } }\nimages: {}\nreasoning: []\n',
  );
  const gateway = gatewayFrom(registry, {});
  t.same(gateway, { providers: ['litellm'], ids: 'openrouter' });
  const onlyGateway = new UpstreamRegistry([{ ...spec('openai'), baseUrl: { env: 'OPENAI_BASE_URL' } }, spec('openrouter', 'OPENROUTER_API_KEY')], {
    OPENROUTER_API_KEY: 'k',
  });
  t.match(resolveModel(registry, 'models', 'm', onlyGateway, undefined, gateway), { route: { upstream: 'openrouter', model: 'm' } });
});
