import path from 'node:path';
import { runFfmpeg } from '../../../features/audio/ffmpeg.js';
import { openAudioSource } from '../../../features/audio/source.js';
import { invalidParameter, notFound } from '../../../core/errors.js';
import { LOCAL_NOTE, transcribeLocal, transcribeRemote, transcriptionConfigured } from '../../../features/speech/transcribe.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Longest source: a Whisper server takes long recordings; pocketsphinx runs at ~0.25–1× real time here. */
const MAX_REMOTE_S = 60 * 60;
const MAX_LOCAL_S = 15 * 60;

/**
 * /api/ai/transcript: the words spoken in an audio or video file. ffmpeg takes the first
 * audio track to what the engine wants (16 kHz mono: WAV for pocketsphinx, a 64 kbps MP3
 * for a server, which keeps an hour under the usual 25 MB upload limit).
 */
export default handler<Params['ai/transcript']>(async ({ params, call, setup }) => {
  const remote = transcriptionConfigured(setup);
  const lang = params.lang?.toLowerCase();
  if (!remote && lang && !/^en(-us)?$/.test(lang)) {
    throw invalidParameter('lang', 'the offline engine (pocketsphinx) knows only English; set STT_BASE_URL for other languages');
  }
  const source = await openAudioSource(setup, call, { maxDurationS: remote ? MAX_REMOTE_S : MAX_LOCAL_S });
  try {
    const base = ['-map', '0:a:0', '-vn', '-sn', '-dn', '-ac', '1', '-ar', '16000'];
    if (remote) {
      const mp3 = path.join(source.dir, 'speech.mp3');
      await runFfmpeg(setup, call.signal, [source.file], [...base, '-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', mp3]);
      const heard = await transcribeRemote(setup, mp3, { language: lang?.split('-')[0], signal: call.signal });
      if (!heard.text) throw notFound('No speech was recognised in the audio');
      return {
        text: heard.text,
        engine: 'openai-compatible',
        model: heard.model,
        ...(heard.language ? { language: heard.language } : {}),
        duration: round(source.duration),
      };
    }
    const wav = path.join(source.dir, 'speech.wav');
    await runFfmpeg(setup, call.signal, [source.file], [...base, '-c:a', 'pcm_s16le', '-f', 'wav', wav]);
    const text = await transcribeLocal(setup, wav, call.signal);
    if (!text) throw notFound('No speech was recognised in the audio');
    return { text, engine: 'pocketsphinx', language: 'en', duration: round(source.duration), note: LOCAL_NOTE };
  } finally {
    await source.dispose();
  }
});

const round = (seconds: number) => Math.round(seconds * 100) / 100;
