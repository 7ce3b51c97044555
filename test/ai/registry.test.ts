import t from 'tap';
import { modelRegistry, parseRegistry, resolveModel } from '../../engine/ai/registry.js';
import { UpstreamRegistry, type UpstreamSpec } from '../../engine/upstreams.js';

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
  for (const family of ['gpt-4o', 'claude-3.5-sonnet', 'gemini-2.5-pro', 'llama-3.3-70b', 'mixtral-8x7b', 'qwen-2.5-72b', 'deepseek-r1', 'phi-4', 'gemma-3-27b', 'o3-mini']) {
    t.ok(registry.models[family], `has ${family}`);
  }
});

t.test('an alias goes to its first configured provider, in the registry\'s order', async (t) => {
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
    () => parseRegistry('providers: { a: { upstream: a, about: A } }\nmodels: { m: { b: x } }\nimages: {}\nreasoning: []\n'),
    /models\.m names unknown provider b/,
  );
  t.throws(() => parseRegistry('providers: {}\nmodels: { m: {} }\nimages: {}\nreasoning: []\n'), /models\.yaml/);
});
