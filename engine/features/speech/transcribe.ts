import fs from 'node:fs';
import type { AdapterSetup } from '../../contract/call.js';
import { toolError } from '../audio/source.js';
import { upstreamError } from '../../core/errors.js';
import { captureTool } from '../media/child.js';
import { binaryPath } from '../../core/binaries.js';

/**
 * Speech to text: an OpenAI-compatible /audio/transcriptions server when one is
 * configured (STT_BASE_URL: Whisper-class accuracy, many languages), else pocketsphinx
 * (Debian), which runs offline in a child process but only knows US English and is far
 * less accurate — fine on clear speech, poor with noise, music or accents.
 */
export const TRANSCRIPTION_UPSTREAM = 'openai-transcription';

export const LOCAL_NOTE =
  'Transcribed offline by pocketsphinx (US English only): low accuracy, fine on clear speech, poor with noise, music or accents. Configure STT_BASE_URL (an OpenAI-compatible Whisper server) for accurate transcripts.';

type Setup = Pick<AdapterSetup, 'upstreams' | 'http' | 'config'>;

export const transcriptionConfigured = (setup: Pick<AdapterSetup, 'upstreams'>): boolean => !setup.upstreams.unavailable(TRANSCRIPTION_UPSTREAM);

/** POST /audio/transcriptions with the audio file (multipart, encoded by the platform's FormData). */
export async function transcribeRemote(
  setup: Setup,
  file: string,
  options: { language?: string; signal: AbortSignal },
): Promise<{ text: string; model: string; language?: string }> {
  const model = setup.config.env.STT_MODEL || 'whisper-1';
  const form = new FormData();
  form.set('file', new Blob([await fs.promises.readFile(file)], { type: 'audio/mpeg' }), 'audio.mp3');
  form.set('model', model);
  form.set('response_format', 'json');
  if (options.language) form.set('language', options.language);
  // the multipart body and its boundary, as fetch would send them
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const data = await setup.upstreams.call<{ text?: unknown; language?: unknown }>(TRANSCRIPTION_UPSTREAM, {
    method: 'POST',
    path: '/audio/transcriptions',
    headers: { 'content-type': encoded.headers.get('content-type')! },
    body: Buffer.from(await encoded.arrayBuffer()),
    signal: options.signal,
  });
  if (typeof data?.text !== 'string') throw upstreamError(TRANSCRIPTION_UPSTREAM, 'no text in the answer');
  return { text: data.text.trim(), model, ...(typeof data.language === 'string' ? { language: data.language } : {}) };
}

/** pocketsphinx_continuous on a 16 kHz mono WAV: one recognised utterance per line. */
export async function transcribeLocal(setup: Pick<AdapterSetup, 'config'>, wav: string, signal: AbortSignal): Promise<string> {
  const bin = binaryPath('pocketsphinx_continuous', setup.config.env);
  let out: string;
  try {
    out = await captureTool(bin, ['-infile', wav, '-logfn', '/dev/null'], { signal, maxBytes: 4 * 1024 * 1024 });
  } catch (error) {
    toolError(signal, 'pocketsphinx', 'the speech could not be recognised', error);
  }
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
}
