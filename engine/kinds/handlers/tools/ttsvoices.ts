import { speechConfigured } from '../../../features/speech/openai-speech.js';
import { localVoices } from '../../../features/speech/voices.js';
import { handler } from '../../../contract/handler.js';

/** /api/tools/ttsvoices: the voices /api/tools/tts can use here, installed ones first. */
export default handler(async ({ setup }) => {
  const env = setup.config.env;
  const voices: Record<string, unknown>[] = (await localVoices(env)).map((v) => ({ id: v.id, engine: v.engine, language: v.language }));
  if (speechConfigured(setup)) {
    voices.unshift({ id: env.TTS_VOICE || 'alloy', engine: 'openai-compatible', language: 'multilingual', model: env.TTS_MODEL || 'tts-1', default: true });
  }
  return voices;
});
