import { PassThrough, type Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { StringDecoder } from 'node:string_decoder';
import { createParser } from 'eventsource-parser';
import { ApiError, upstreamError, upstreamTimeout } from '../../core/errors.js';
import type { UpstreamCall, UpstreamRegistry } from '../../catalog/upstreams.js';
import type { Route } from './registry.js';

/**
 * Calls in the OpenAI API format, which every provider in models.yaml speaks:
 * chat completions (whole answer, or streamed as server-sent events) and image
 * generation. Calls go through the upstream registry (URL, keys, timeout policy);
 * an upstream error status is 502, no answer within the budget 504.
 */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
export interface Message {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatRequest {
  route: Route;
  messages: Message[];
  temperature?: number;
  maxTokens?: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Receives the tokens the provider reports (`usage`): with a whole answer, or on a stream's last chunk when the provider sends it. */
  onUsage?: (tokens: { prompt?: number; completion?: number }) => void;
}

export interface ApiDeps {
  upstreams: UpstreamRegistry;
}

interface Completion {
  choices?: { message?: { content?: string | null } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}
interface Chunk {
  choices?: { delta?: { content?: string | null } }[] | null;
  /** Sent by some providers on the last chunk (OpenAI with stream_options.include_usage, OpenRouter always). */
  usage?: Completion['usage'] | null;
  error?: { message?: string };
}
interface Images {
  data?: { url?: string; b64_json?: string }[];
}

/** Reasoning models reject temperature and max_tokens; they take max_completion_tokens. */
function chatBody(request: ChatRequest, stream: boolean) {
  const { route } = request;
  return {
    model: route.model,
    messages: request.messages,
    stream,
    ...(route.reasoning ? { max_completion_tokens: request.maxTokens } : { temperature: request.temperature, max_tokens: request.maxTokens }),
  };
}

/** A POST to the route's upstream, within the caller's budget (the registry's timeout policy caps it). */
const post = (path: string, json: unknown, timeoutMs: number, signal: AbortSignal, headers?: Record<string, string>): UpstreamCall => ({
  method: 'POST',
  path,
  json,
  headers,
  limitMs: timeoutMs,
  signal,
});

/** Some reasoning models (DeepSeek R1 distills) put their chain of thought first, in <think> tags. */
const withoutThinking = (text: string) => text.replace(/^\s*<think>[\s\S]*?<\/think>\s*/, '');

export async function complete(deps: ApiDeps, request: ChatRequest): Promise<string> {
  const data = await deps.upstreams.call<Completion>(
    request.route.upstream,
    post('/chat/completions', chatBody(request, false), request.timeoutMs, request.signal),
  );
  const answer = data?.choices?.[0]?.message?.content;
  const usage = data?.usage;
  if (usage && request.onUsage) reportUsage(usage, request.onUsage);
  if (typeof answer !== 'string') throw upstreamError(request.route.upstream, 'no message content in the completion');
  return withoutThinking(answer).trim();
}

const tokenCount = (n: unknown): number | undefined => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined);
/** Tokens as the provider reports them; a field it leaves out (or not a count) is unknown, not 0 guessed. */
const reportUsage = (usage: NonNullable<Completion['usage']>, onUsage: NonNullable<ChatRequest['onUsage']>) =>
  onUsage({ prompt: tokenCount(usage.prompt_tokens), completion: tokenCount(usage.completion_tokens) });

const event = (data: unknown, name?: string) => `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/**
 * Stream a chat completion to the client as server-sent events: `data: {"content": "…"}`
 * per fragment, then `event: done` with `{"result": full text}`, or `event: error` with
 * `{"error", "message"}` when the upstream fails after the first byte (before it, the
 * call throws and the client gets the usual JSON envelope). A stream that stays silent
 * for `timeoutMs` ends with an `upstream_timeout` error event. `onDone` receives the
 * full answer once it is complete.
 */
export async function streamChat(deps: ApiDeps, request: ChatRequest, onDone: (answer: string) => void): Promise<Readable> {
  const upstream = await deps.upstreams.stream(
    request.route.upstream,
    post('/chat/completions', chatBody(request, true), request.timeoutMs, request.signal, { accept: 'text/event-stream' }),
  );
  const out = new PassThrough();
  const decoder = new StringDecoder('utf8');
  let answer = '';
  let ended = false;
  let idle: NodeJS.Timeout | undefined;
  const end = (last: string) => {
    if (ended) return;
    ended = true;
    clearTimeout(idle);
    upstream.body.destroy();
    out.end(last);
  };
  const fail = (error: unknown) => {
    const known = error instanceof ApiError ? error : upstreamError(request.route.upstream, 'stream interrupted');
    end(event({ error: known.code, message: known.message }, 'error'));
  };
  const finish = () => {
    try {
      onDone(answer);
    } catch {
      // It runs inside a stream callback, where a throw would take the process down.
      end(event({ error: 'internal_error', message: 'The answer could not be saved to the session' }, 'error'));
      return;
    }
    end(event({ result: answer }, 'done'));
  };
  const parser = createParser({
    onEvent({ data }) {
      if (ended) return;
      if (data === '[DONE]') {
        finish();
        return;
      }
      let chunk: Chunk;
      try {
        chunk = JSON.parse(data) as Chunk;
      } catch {
        fail(upstreamError(request.route.upstream, 'a stream event is not JSON'));
        return;
      }
      if (chunk.error) {
        fail(upstreamError(request.route.upstream, 'error event in the stream'));
        return;
      }
      // counted as soon as seen: a stream cut off after it still cost what the provider reported
      if (chunk.usage && request.onUsage) reportUsage(chunk.usage, request.onUsage);
      const content = chunk.choices?.[0]?.delta?.content;
      if (typeof content === 'string' && content) {
        answer += content;
        out.write(event({ content }));
      }
    },
  });
  // The shared client's deadline covers the wait for the response headers only.
  const silence = () => fail(upstreamTimeout(request.route.upstream, request.timeoutMs));
  idle = setTimeout(silence, request.timeoutMs);
  upstream.body.on('data', (bytes: Buffer) => {
    idle?.refresh();
    parser.feed(decoder.write(bytes));
  });
  upstream.body.on('end', () => {
    parser.feed(decoder.end());
    // Some servers close without [DONE]; what arrived is the answer.
    if (!ended) finish();
  });
  upstream.body.on('error', fail);
  out.on('close', () => {
    clearTimeout(idle);
    upstream.body.destroy();
  });
  return out;
}

export interface GeneratedImage {
  url?: string;
  png?: Buffer;
}

/** OpenAI images API: a URL (dall-e, most providers) or base64 PNG bytes (GPT image models). */
export async function generateImage(
  deps: ApiDeps,
  request: { route: Route; prompt: string; size?: string; timeoutMs: number; signal: AbortSignal },
): Promise<GeneratedImage> {
  const json = { model: request.route.model, prompt: request.prompt, n: 1, size: request.size };
  const data = await deps.upstreams.call<Images>(request.route.upstream, post('/images/generations', json, request.timeoutMs, request.signal));
  const first = data?.data?.[0];
  if (typeof first?.url === 'string' && /^https?:\/\//.test(first.url)) return { url: first.url };
  if (typeof first?.b64_json === 'string' && first.b64_json) return { png: Buffer.from(first.b64_json, 'base64') };
  throw upstreamError(request.route.upstream, 'no image in the answer');
}

/**
 * OpenAI image edits (POST /images/edits, multipart `image` + `prompt`), which OpenAI-compatible
 * image servers copy: the picture changed as the prompt says. A URL (dall-e-2, most providers)
 * or base64 PNG bytes (GPT image models) come back, as from generateImage.
 */
export async function editImage(
  deps: ApiDeps,
  request: { route: Route; prompt: string; image: Buffer; timeoutMs: number; signal: AbortSignal },
): Promise<GeneratedImage> {
  const form = await multipart({
    model: request.route.model,
    prompt: request.prompt,
    n: '1',
    image: { file: new Blob([new Uint8Array(request.image)], { type: 'image/png' }), name: 'image.png' },
  });
  const call: UpstreamCall = { method: 'POST', path: '/images/edits', ...form, limitMs: request.timeoutMs, signal: request.signal };
  const data = await deps.upstreams.call<Images>(request.route.upstream, call);
  const first = data?.data?.[0];
  if (typeof first?.url === 'string' && /^https?:\/\//.test(first.url)) return { url: first.url };
  if (typeof first?.b64_json === 'string' && first.b64_json) return { png: Buffer.from(first.b64_json, 'base64') };
  throw upstreamError(request.route.upstream, 'no image in the answer');
}

interface Video {
  id?: string;
  status?: 'queued' | 'in_progress' | 'completed' | 'failed' | string;
  error?: { message?: string; code?: string } | null;
}

/** The largest video taken from a provider (a 12 s 1280×720 Sora clip is a few tens of MB). */
export const VIDEO_MAX_BYTES = 128 * 1024 * 1024;

/** A multipart body (image edits, videos) by the platform's own encoder: the bytes and the boundary header. */
async function multipart(fields: Record<string, string | { file: Blob; name: string }>): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value.file, value.name);
  }
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type')! }, body: Buffer.from(await encoded.arrayBuffer()) };
}

/**
 * OpenAI's videos API (Sora 2; OpenAI-compatible servers copy it): POST /videos starts a
 * render (model, prompt, seconds, size), GET /videos/{id} reports `queued`, `in_progress`,
 * `completed` or `failed`, and GET /videos/{id}/content is the MP4. Asked at once after the
 * start, then every `pollMs`, until the render ends or `timeoutMs` runs out (504).
 */
export async function generateVideo(
  deps: ApiDeps,
  request: { route: Route; prompt: string; seconds: string; size: string; timeoutMs: number; pollMs: number; signal: AbortSignal },
): Promise<Buffer> {
  const { route, signal } = request;
  const until = Date.now() + request.timeoutMs;
  const left = () => Math.max(1, until - Date.now());
  const form = await multipart({ model: route.model, prompt: request.prompt, seconds: request.seconds, size: request.size });
  let video = await deps.upstreams.call<Video>(route.upstream, { method: 'POST', path: '/videos', ...form, limitMs: left(), signal });
  const id = video?.id;
  if (typeof id !== 'string' || !id) throw upstreamError(route.upstream, 'no video id in the answer');
  const path = `/videos/${encodeURIComponent(id)}`;
  for (let first = true; video.status !== 'completed'; first = false) {
    if (video.status === 'failed') throw upstreamError(route.upstream, `the video failed: ${video.error?.message ?? 'no reason given'}`);
    if (!first) {
      if (Date.now() + request.pollMs >= until) throw upstreamTimeout(route.upstream, request.timeoutMs);
      await sleep(request.pollMs, undefined, { signal });
    }
    video = await deps.upstreams.call<Video>(route.upstream, { path, limitMs: left(), signal });
  }
  const content = await deps.upstreams.buffer(route.upstream, { path: `${path}/content`, limitMs: left(), signal, maxBytes: VIDEO_MAX_BYTES });
  if (!content.body.length) throw upstreamError(route.upstream, 'the finished video was empty');
  return content.body;
}
