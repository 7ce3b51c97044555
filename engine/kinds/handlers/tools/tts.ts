import fs from 'node:fs';
import path from 'node:path';
import { MP3_ARGS, mp3File, runFfmpeg } from '../../../features/audio/ffmpeg.js';
import { workDir } from '../../../features/audio/source.js';
import { wavSeconds } from '../../../features/audio/wav.js';
import { invalidParameter } from '../../../core/errors.js';
import { speakRemote, speechConfigured } from '../../../features/speech/openai-speech.js';
import { synthesize } from '../../../features/speech/synthesize.js';
import { localVoices, voiceFor, type Voice } from '../../../features/speech/voices.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/tts: an MP3 of the text. With a speech server configured (TTS_BASE_URL) it
 * speaks unless `voice` names an installed voice; otherwise the best installed voice for
 * `lang` (Festival's slt for English, espeak-ng for the rest) speaks, and ffmpeg sets the
 * tempo and encodes the MP3.
 */
export default handler<Params['tools/tts']>(async ({ params, call, setup }) => {
  const env = setup.config.env;
  const remote = speechConfigured(setup);
  const voices = await localVoices(env);
  let local: Voice | undefined;
  if (params.voice) {
    local = voices.find((v) => v.id === params.voice!.toLowerCase());
    if (!local && !remote) throw invalidParameter('voice', `no voice "${params.voice}" is installed (GET /api/tools/ttsvoices lists them)`);
  } else if (!remote) {
    local = voiceFor(voices, params.lang);
    if (!local) throw invalidParameter('lang', `no installed voice speaks "${params.lang}" (GET /api/tools/ttsvoices lists them)`);
  }
  const { dir, dispose } = await workDir(setup, 'tts');
  try {
    const out = path.join(dir, 'speech.mp3');
    if (!local) {
      const spoken = await speakRemote(setup, { text: params.text, voice: params.voice, speed: params.speed, signal: call.signal });
      await fs.promises.writeFile(out, spoken.audio);
      return await mp3File(setup, call, out, { voice: spoken.voice, engine: 'openai-compatible', model: spoken.model });
    }
    const wav = await synthesize(env, local, params.text, dir, call.signal);
    const tempo = params.speed === 1 ? [] : ['-af', `atempo=${params.speed}`];
    await runFfmpeg(setup, call.signal, [wav], [...tempo, '-ac', '1', ...MP3_ARGS, out]);
    // the speech's length from the WAV's header, at the tempo asked: no ffprobe run
    const spoken = await wavSeconds(wav);
    return await mp3File(setup, call, out, { voice: local.id, engine: local.engine, language: local.language }, spoken && spoken / params.speed);
  } finally {
    await dispose();
  }
});
