import path from 'node:path';
import { VOCAL_CUT, VOCAL_CUT_KEEP_BASS } from '../../../features/audio/filters.js';
import { MP3_ARGS, mp3File, runFfmpeg } from '../../../features/audio/ffmpeg.js';
import { openAudioSource } from '../../../features/audio/source.js';
import { invalidParameter } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Longest song accepted, in seconds. */
const MAX_DURATION_S = 15 * 60;

/**
 * /api/tools/vocalremover (and v2 with `options.keepBass`): centre-channel cancellation
 * of a stereo mix with ffmpeg (engine/features/audio/filters.ts says what it can and cannot do).
 */
export default handler<Params['tools/vocalremover']>(async ({ options, call, setup }) => {
  const source = await openAudioSource(setup, call, { maxDurationS: MAX_DURATION_S });
  try {
    if (source.channels < 2) throw invalidParameter('url', 'the audio is mono: centre-channel cancellation needs a stereo mix');
    const out = path.join(source.dir, 'out.mp3');
    const graph = options.keepBass ? VOCAL_CUT_KEEP_BASS : VOCAL_CUT;
    await runFfmpeg(setup, call.signal, [source.file], ['-map', '0:a:0', '-vn', '-filter_complex', `[0:a:0]${graph}`, ...MP3_ARGS, out]);
    return await mp3File(setup, call, out, {
      method: options.keepBass ? 'centre-channel cancellation above 120 Hz, bass kept' : 'centre-channel cancellation',
    });
  } finally {
    await source.dispose();
  }
});
