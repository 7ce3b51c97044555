import type { AdapterSetup } from '../../contract/call.js';

/** The upstream (endpoints/upstreams/openai-speech.yaml) of the OpenAI-compatible speech API. */
export const SPEECH_UPSTREAM = 'openai-speech';

export interface SpeechRequest {
  text: string;
  voice?: string;
  /** 0.25–4 in OpenAI's API; the endpoint allows 0.5–2. */
  speed: number;
  signal: AbortSignal;
}

/** Is a speech server configured (TTS_BASE_URL)? */
export const speechConfigured = (setup: Pick<AdapterSetup, 'upstreams'>): boolean => !setup.upstreams.unavailable(SPEECH_UPSTREAM);

/**
 * POST /audio/speech (OpenAI's text-to-speech API, which self-hosted servers copy):
 * the MP3 bytes, with the model and voice used.
 */
export async function speakRemote(
  setup: Pick<AdapterSetup, 'upstreams' | 'http' | 'config'>,
  request: SpeechRequest,
): Promise<{ audio: Buffer; model: string; voice: string }> {
  const env = setup.config.env;
  const model = env.TTS_MODEL || 'tts-1';
  const voice = request.voice || env.TTS_VOICE || 'alloy';
  const { body } = await setup.upstreams.buffer(SPEECH_UPSTREAM, {
    method: 'POST',
    path: '/audio/speech',
    headers: { accept: 'audio/mpeg' },
    json: { model, input: request.text, voice, response_format: 'mp3', speed: request.speed },
    signal: request.signal,
    maxBytes: 50 * 1024 * 1024,
  });
  return { audio: body, model, voice };
}
