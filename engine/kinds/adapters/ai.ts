import { invalidParameter, unavailable } from '../../core/errors.js';
import { fillTemplate } from '../../core/mapping.js';
import { ConversationMemory, type ChatMessage } from '../../features/ai/memory.js';
import { modelUnavailable, routeModel } from '../../features/ai/catalog.js';
import { complete, streamChat, type ContentPart, type Message } from '../../features/ai/openai-api.js';
import { json, type AdapterKind, type AdapterSetup } from '../../contract/call.js';

/**
 * AI through any OpenAI-compatible server. Models are named by alias and resolved with
 * engine/features/ai/models.yaml to the first configured provider that has them (or, with
 * `upstream`, pinned to one provider, where a non-alias passes through as a model id).
 *
 * Chat only: the answer is the reply text, or it streams as server-sent events when the
 * endpoint is `streamable` and the client sends stream=true; it can add an image URL for
 * vision models (checked by the SSRF guard first) and remember a `session`'s previous
 * turns. Image generation and the model list are code handlers (engine/kinds/handlers/ai/).
 */
interface AiConfig {
  /** Pin every call to this upstream. */
  upstream?: string;
  /** Model alias or id; may be a template such as ${env.OPENAI_MODEL}. */
  model?: string;
  /** Used when `model` resolves to nothing. */
  defaultModel?: string;
  /** Param a client may use to pick another alias from the registry. */
  modelParam?: string;
  /** System prompt template (${params.x}). */
  system?: string;
  /** Param holding the user's text. */
  prompt?: string;
  /** User message template (${params.x}); default: the prompt param as is. */
  template?: string;
  /** Param holding an image URL to show the model (vision). */
  image?: string;
  /** Param holding a conversation id; its last turns are sent along and the new one is kept. */
  session?: string;
  temperature?: number;
  maxTokens?: number;
}

const configSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    upstream: { type: 'string' },
    model: { type: 'string' },
    defaultModel: { type: 'string' },
    modelParam: { type: 'string' },
    system: { type: 'string' },
    prompt: { type: 'string' },
    template: { type: 'string' },
    image: { type: 'string' },
    session: { type: 'string' },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    maxTokens: { type: 'integer', minimum: 1 },
  },
  required: ['model', 'prompt'],
};

function configuredModel(config: AiConfig, setup: AdapterSetup): string {
  return String(fillTemplate(config.model ?? '', { params: {}, env: setup.config.env }) || config.defaultModel || '');
}

/** The engine's conversation memory, made on first use so endpoints without sessions never touch the database. */
const memoryOf = (setup: AdapterSetup): ConversationMemory => setup.scope.own('ai memory', () => new ConversationMemory(setup.database));

export const ai: AdapterKind<AiConfig> = {
  kind: 'ai',
  cost: 'io',
  configSchema,
  unavailable(config, setup) {
    return modelUnavailable('models', configuredModel(config, setup), setup.upstreams, setup.config.env, config.upstream);
  },
  create(config, setup) {
    const env = setup.config.env;
    const fixed = routeModel('models', configuredModel(config, setup), setup.upstreams, env, config.upstream);
    const deps = { upstreams: setup.upstreams };
    const timeoutMs = setup.endpoint.limits.timeoutMs;

    const routeFor = (params: Record<string, unknown>) => {
      const asked = config.modelParam ? params[config.modelParam] : undefined;
      const resolution = asked ? routeModel('models', String(asked), setup.upstreams, env) : fixed;
      if ('unknown' in resolution) throw invalidParameter(config.modelParam!, 'unknown model (GET /api/ai/models lists them)');
      if ('missing' in resolution) throw unavailable(resolution.missing);
      return resolution.route;
    };

    return async ({ params, signal, caller, meter }) => {
      const route = routeFor(params);
      const scope = { params, env };
      const text = config.template ? String(fillTemplate(config.template, scope)) : String(params[config.prompt!]);

      const imageUrl = config.image ? params[config.image] : undefined;
      if (typeof imageUrl === 'string') await setup.http.guard.checkUrl(imageUrl, config.image);
      const content: string | ContentPart[] =
        typeof imageUrl === 'string'
          ? [
              { type: 'text', text },
              { type: 'image_url', image_url: { url: imageUrl } },
            ]
          : text;

      const session = config.session ? (params[config.session] as string | undefined) : undefined;
      // sessions belong to the caller's key: another key sending the same id sees nothing of them
      const memoryScope = { endpoint: setup.endpoint.id, keyId: caller.keyId };
      const history: ChatMessage[] = session ? await memoryOf(setup).recall(memoryScope, session) : [];
      const messages: Message[] = [
        ...(config.system ? [{ role: 'system' as const, content: String(fillTemplate(config.system, scope)) }] : []),
        ...history,
        { role: 'user', content },
      ];
      const remember = async (answer: string) => {
        if (session && answer)
          await memoryOf(setup).remember(memoryScope, session, [
            { role: 'user', content: text },
            { role: 'assistant', content: answer },
          ]);
      };
      const request = { route, messages, temperature: config.temperature, maxTokens: config.maxTokens, timeoutMs, signal, onUsage: meter };

      if (params.stream) {
        // the answer has streamed out by then: a memory that cannot be saved has no one left to tell
        const body = await streamChat(deps, request, (answer) => void remember(answer).catch(() => undefined));
        return { type: 'binary', body, contentType: 'text/event-stream; charset=utf-8', headers: { 'X-Accel-Buffering': 'no' } };
      }
      const answer = await complete(deps, request);
      await remember(answer);
      return json(answer);
    };
  },
};
