import type { AdapterSetup } from '../../contract/call.js';
import { complete } from '../ai/openai-api.js';
import { modelRegistry, resolveModel, type Route } from '../ai/registry.js';
import { upstreamError } from '../../core/errors.js';
import { languageTag, type Language } from './languages.js';

/**
 * Translation services a host can configure, each in its own documented API: a
 * LibreTranslate server, DeepL, or the AI provider at OPENAI_BASE_URL (the model that
 * serves /api/ai/translate). Each answers the translation and, when it says so, the
 * detected source language.
 */
export type Service = 'libretranslate' | 'deepl' | 'ai';

export interface TranslateRequest {
  text: string;
  /** Undefined = detect. */
  from?: Language;
  to: Language;
  signal: AbortSignal;
  timeoutMs: number;
}

type Setup = Pick<AdapterSetup, 'upstreams' | 'http' | 'config'>;

const configured = (setup: Setup, upstream: string) => !setup.upstreams.unavailable(upstream);

/** The AI route translations take: OPENAI_MODEL (default gpt-4o-mini) on the openai upstream, as /api/ai/translate. */
function aiRoute(setup: Setup): Route | undefined {
  const resolved = resolveModel(modelRegistry(), 'models', setup.config.env.OPENAI_MODEL || 'gpt-4o-mini', setup.upstreams, 'openai');
  return 'route' in resolved ? resolved.route : undefined;
}

/** The configured services, in the order they are tried: dedicated translators first. */
export function configuredServices(setup: Setup): Service[] {
  const services: Service[] = [];
  if (configured(setup, 'libretranslate')) services.push('libretranslate');
  if (configured(setup, 'deepl')) services.push('deepl');
  if (aiRoute(setup)) services.push('ai');
  return services;
}

export async function translateWith(service: Service, setup: Setup, request: TranslateRequest): Promise<string> {
  switch (service) {
    case 'libretranslate':
      return libreTranslate(setup, request);
    case 'deepl':
      return deepl(setup, request);
    case 'ai':
      return aiTranslate(setup, request);
  }
}

async function libreTranslate(setup: Setup, request: TranslateRequest): Promise<string> {
  const key = setup.config.env.LIBRETRANSLATE_API_KEY;
  const data = await setup.upstreams.call<{ translatedText?: unknown }>('libretranslate', {
    method: 'POST',
    path: '/translate',
    // LibreTranslate's codes are bare ISO 639-1 (zh-Hans and pt-BR aside)
    json: { q: request.text, source: request.from ? request.from.base : 'auto', target: request.to.base, format: 'text', ...(key ? { api_key: key } : {}) },
    limitMs: request.timeoutMs,
    signal: request.signal,
  });
  if (typeof data?.translatedText !== 'string') throw upstreamError('libretranslate', 'no translatedText in the answer');
  return data.translatedText;
}

/** DeepL wants a variant for English and Portuguese targets; EN-US and PT-BR are what most bot users read. */
const DEEPL_DEFAULT_VARIANT: Record<string, string> = { en: 'EN-US', pt: 'PT-BR' };

async function deepl(setup: Setup, request: TranslateRequest): Promise<string> {
  const env = setup.config.env;
  // free-plan keys only work on the free host
  const baseUrl = !env.DEEPL_API_URL && env.DEEPL_API_KEY?.endsWith(':fx') ? 'https://api-free.deepl.com' : undefined;
  const target = request.to.region ? languageTag(request.to).toUpperCase() : (DEEPL_DEFAULT_VARIANT[request.to.base] ?? request.to.base.toUpperCase());
  const data = await setup.upstreams.call<{ translations?: { text?: unknown }[] }>('deepl', {
    method: 'POST',
    baseUrl,
    path: '/v2/translate',
    json: { text: [request.text], target_lang: target, ...(request.from ? { source_lang: request.from.base.toUpperCase() } : {}) },
    limitMs: request.timeoutMs,
    signal: request.signal,
  });
  const text = data?.translations?.[0]?.text;
  if (typeof text !== 'string') throw upstreamError('deepl', 'no translations[0].text in the answer');
  return text;
}

async function aiTranslate(setup: Setup, request: TranslateRequest): Promise<string> {
  const route = aiRoute(setup)!;
  const from = request.from ? languageTag(request.from) : 'auto';
  const system =
    `You are a professional translator. Translate the user's text from ${from} (auto = detect it) into the language ` +
    `with the code ${languageTag(request.to)}. Reply with the translation only, keeping formatting, names and meaning.`;
  return complete(
    { upstreams: setup.upstreams },
    {
      route,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: request.text },
      ],
      temperature: 0.2,
      timeoutMs: request.timeoutMs,
      signal: request.signal,
    },
  );
}
