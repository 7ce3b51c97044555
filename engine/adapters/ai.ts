import { upstreamError } from '../errors.js';
import { fillTemplate } from '../mapping.js';
import type { AdapterKind } from './types.js';

/**
 * Chat through any OpenAI-compatible `/v1/chat/completions` server (OpenAI, OpenRouter,
 * Groq, Ollama, llama.cpp…): the upstream says where, the manifest says which model,
 * system prompt and param carry the question; `result` is the answer text.
 */
interface AiConfig {
  upstream: string;
  /** Model name; may be a template such as ${env.OPENAI_MODEL}. */
  model: string;
  /** Fallback when the model template resolves to nothing. */
  defaultModel?: string;
  system?: string;
  /** Param holding the user's message. */
  prompt: string;
  temperature?: number;
  maxTokens?: number;
}

interface ChatCompletion {
  choices?: { message?: { content?: string | null } }[];
}

export const ai: AdapterKind<AiConfig> = {
  kind: 'ai',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['upstream', 'model', 'prompt'],
    properties: {
      upstream: { type: 'string' },
      model: { type: 'string' },
      defaultModel: { type: 'string' },
      system: { type: 'string' },
      prompt: { type: 'string' },
      temperature: { type: 'number', minimum: 0, maximum: 2 },
      maxTokens: { type: 'integer', minimum: 1 },
    },
  },
  unavailable(config, setup) {
    if (!setup.upstreams.has(config.upstream)) return `unknown upstream ${config.upstream}`;
    return setup.upstreams.get(config.upstream).missing;
  },
  create(config, setup) {
    const upstream = setup.upstreams.get(config.upstream);
    const model = String(fillTemplate(config.model, { params: {}, env: setup.config.env }) || config.defaultModel || '');
    return async ({ params, signal }) => {
      const messages = [
        ...(config.system ? [{ role: 'system', content: config.system }] : []),
        { role: 'user', content: String(params[config.prompt]) },
      ];
      const data = await setup.http.upstreamJson<ChatCompletion>({
        upstream: config.upstream,
        method: 'POST',
        url: `${upstream.baseUrl}/chat/completions`,
        headers: upstream.headers,
        searchParams: upstream.query,
        json: { model, messages, temperature: config.temperature, max_tokens: config.maxTokens, stream: false },
        timeoutMs: setup.endpoint.limits.timeoutMs,
        signal,
      });
      const answer = data?.choices?.[0]?.message?.content;
      if (typeof answer !== 'string') throw upstreamError(config.upstream, 'no message content in the completion');
      return { type: 'json', result: answer.trim() };
    };
  },
};
