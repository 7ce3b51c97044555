import path from 'node:path';
import { runFfmpeg } from '../../../features/audio/ffmpeg.js';
import { openAudioSource } from '../../../features/audio/source.js';
import { invalidParameter, notFound } from '../../../core/errors.js';
import { acoustidLookup } from '../../../features/songid/acoustid.js';
import { AUDD_SAMPLE_SECONDS, AUDD_UPSTREAM, auddRecognize } from '../../../features/songid/audd.js';
import { fingerprintAudio } from '../../../features/songid/fingerprint.js';
import type { Song } from '../../../features/songid/song.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Longest source accepted: only its start is used, but a full mix or podcast is not what this is for. */
const MAX_SOURCE_S = 60 * 60;
/** Shorter than this, neither service has enough sound to go on. */
const MIN_SOURCE_S = 3;

/**
 * The song also under the names the genre's atassa bots read (gifted/search.js): genres (joined),
 * coverart (the cover), spotify (the Spotify link, else null) and youtube — a YouTube search for
 * the artist and title, the one YouTube address that can be given without guessing a video.
 */
function forGenre(song: Song) {
  const query = new URLSearchParams({ search_query: `${song.artist} ${song.title}` });
  return {
    ...song,
    genres: song.genres.length ? song.genres.join(', ') : null,
    coverart: song.thumbnail,
    spotify: song.links.spotify ?? null,
    youtube: `https://www.youtube.com/results?${query}`,
  };
}

/**
 * /api/search/shazam: which song is playing in an audio or video file. With AudD
 * configured (AUDD_API_TOKEN) the first seconds go to AudD, which recognises a sample
 * from anywhere in a song; otherwise the first 30 s are fingerprinted here with
 * Chromaprint's fpcalc and looked up in AcoustID (ACOUSTID_API_KEY), which matches
 * recordings from their start. The audio is fetched through the SSRF guard (a page goes
 * through the downloaders' media pipeline) and never handed to a service as a URL.
 */
export default handler<Params['search/shazam']>(async ({ call, setup }) => {
  const source = await openAudioSource(setup, call, { maxDurationS: MAX_SOURCE_S });
  try {
    if (source.duration < MIN_SOURCE_S) throw invalidParameter('url', `the audio is too short to identify (at least ${MIN_SOURCE_S} s)`);
    let song;
    if (!setup.upstreams.unavailable(AUDD_UPSTREAM)) {
      const clip = path.join(source.dir, 'sample.mp3');
      const sample = [
        '-map',
        '0:a:0',
        '-vn',
        '-t',
        String(AUDD_SAMPLE_SECONDS),
        '-ac',
        '1',
        '-ar',
        '44100',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '128k',
        '-f',
        'mp3',
        clip,
      ];
      await runFfmpeg(setup, call.signal, [source.file], sample);
      song = await auddRecognize(setup, clip, call.signal);
    } else {
      song = await acoustidLookup(setup, await fingerprintAudio(setup, call.signal, source), call.signal);
    }
    if (!song) throw notFound('No song was recognised in the audio');
    return forGenre(song);
  } finally {
    await source.dispose();
  }
});
