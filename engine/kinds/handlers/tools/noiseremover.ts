import path from 'node:path';
import { DENOISE } from '../../../features/audio/filters.js';
import { MP3_ARGS, mp3File, runFfmpeg } from '../../../features/audio/ffmpeg.js';
import { openAudioSource } from '../../../features/audio/source.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Longest recording accepted, in seconds (anlmdn costs about a quarter of real time here). */
const MAX_DURATION_S = 10 * 60;

/** /api/tools/noiseremover: steady background noise reduced with ffmpeg's afftdn + anlmdn. */
export default handler<Params['tools/noiseremover']>(async ({ call, setup }) => {
  const source = await openAudioSource(setup, call, { maxDurationS: MAX_DURATION_S });
  try {
    const out = path.join(source.dir, 'out.mp3');
    await runFfmpeg(setup, call.signal, [source.file], ['-map', '0:a:0', '-vn', '-af', DENOISE, ...MP3_ARGS, out]);
    return await mp3File(setup, call, out, { method: 'spectral subtraction (afftdn) + non-local means (anlmdn)' });
  } finally {
    await source.dispose();
  }
});
