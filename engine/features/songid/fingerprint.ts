import path from 'node:path';
import type { AdapterSetup } from '../../contract/call.js';
import { runFfmpeg } from '../audio/ffmpeg.js';
import { toolError, type AudioSource } from '../audio/source.js';
import { upstreamError } from '../../core/errors.js';
import { startTool } from '../media/child.js';
import { binaryPath } from '../../core/binaries.js';

/** Seconds fingerprinted from the start of the audio: what AcoustID's own tools send by default is 120; a clip a bot forwards is short. */
export const FINGERPRINT_SECONDS = 30;

/**
 * The Chromaprint fingerprint of the first seconds of a client's audio, as AcoustID
 * looks it up. ffmpeg decodes first (local files only, so a crafted playlist cannot
 * make a decoder fetch URLs — fpcalc's own decoder has no such whitelist); fpcalc then
 * reads the plain WAV. `duration` is the whole file's, which AcoustID matches against
 * the recording's length.
 */
export async function fingerprintAudio(
  setup: Pick<AdapterSetup, 'config'>,
  signal: AbortSignal,
  source: AudioSource,
): Promise<{ fingerprint: string; duration: number }> {
  const wav = path.join(source.dir, 'fingerprint.wav');
  const seconds = String(FINGERPRINT_SECONDS);
  await runFfmpeg(setup, signal, [source.file], ['-map', '0:a:0', '-vn', '-t', seconds, '-ac', '1', '-ar', '11025', '-c:a', 'pcm_s16le', '-f', 'wav', wav]);
  const tool = startTool(binaryPath('fpcalc', setup.config.env), ['-json', '-length', seconds, wav], { signal });
  let out = '';
  tool.proc.stdout!.setEncoding('utf8');
  tool.proc.stdout!.on('data', (chunk: string) => {
    if (out.length < MAX_OUTPUT) out += chunk;
  });
  // Debian 12's fpcalc (Chromaprint 1.5.1 on FFmpeg 5) exits 3, "Error decoding audio frame (End of file)",
  // at the end of every input, after printing a good fingerprint: its output decides, not its exit code
  const failed = await tool.exited.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (signal.aborted) throw signal.reason;
  const fingerprint = fingerprintIn(out);
  if (!fingerprint) {
    if (failed) toolError(signal, 'fpcalc', 'the audio could not be fingerprinted', failed);
    throw upstreamError('fpcalc', 'no fingerprint in its output');
  }
  return { fingerprint, duration: Math.max(1, Math.round(source.duration)) };
}

/** fpcalc's JSON is a few kilobytes for 30 s; anything longer is not its answer. */
const MAX_OUTPUT = 256 * 1024;

function fingerprintIn(out: string): string | undefined {
  try {
    const fingerprint = (JSON.parse(out) as { fingerprint?: unknown }).fingerprint;
    return typeof fingerprint === 'string' && fingerprint ? fingerprint : undefined;
  } catch {
    return undefined;
  }
}
