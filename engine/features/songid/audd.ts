import fs from 'node:fs';
import type { AdapterSetup } from '../../contract/call.js';
import { upstreamError } from '../../core/errors.js';
import type { Song } from './song.js';

/**
 * AudD's recognition API (POST / with the clip as the multipart `file`, the token as
 * `api_token` from the upstream spec, `return=apple_music,spotify` for the store links):
 * recognises a sample from anywhere in a song, as a phone app does. The clip is
 * uploaded, so AudD never fetches a client's URL.
 */
export const AUDD_UPSTREAM = 'audd';

/** Seconds of audio sent: AudD's standard recognition wants a short sample (it documents up to ~20 s). */
export const AUDD_SAMPLE_SECONDS = 20;

interface AuddSong {
  artist?: string;
  title?: string;
  album?: string;
  release_date?: string;
  label?: string;
  timecode?: string;
  song_link?: string;
  apple_music?: { url?: string; durationInMillis?: number; artwork?: { url?: string }; genreNames?: string[] };
  spotify?: { id?: string; duration_ms?: number; external_urls?: { spotify?: string }; album?: { images?: { url?: string }[] } };
}
interface AuddAnswer {
  status?: string;
  result?: AuddSong | null;
  error?: { error_code?: number; error_message?: string };
}

/** The song AudD recognises in the clip (an MP3 file), or undefined when it knows none. */
export async function auddRecognize(setup: Pick<AdapterSetup, 'upstreams'>, clip: string, signal: AbortSignal): Promise<Song | undefined> {
  const form = new FormData();
  form.set('file', new Blob([await fs.promises.readFile(clip)], { type: 'audio/mpeg' }), 'sample.mp3');
  form.set('return', 'apple_music,spotify');
  // the multipart body and its boundary, as fetch would send them
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  const answer = await setup.upstreams.call<AuddAnswer>(AUDD_UPSTREAM, {
    method: 'POST',
    path: '/',
    headers: { 'content-type': encoded.headers.get('content-type')! },
    body: Buffer.from(await encoded.arrayBuffer()),
    signal,
  });
  if (answer?.status === 'error') throw upstreamError(AUDD_UPSTREAM, `error ${answer.error?.error_code ?? 'without a code'}`);
  if (answer?.status !== 'success') throw upstreamError(AUDD_UPSTREAM, 'not a recognition answer');
  const song = answer.result;
  if (!song) return undefined;
  if (typeof song.title !== 'string' || typeof song.artist !== 'string') throw upstreamError(AUDD_UPSTREAM, 'a result without title or artist');
  return toSong(song);
}

function toSong(song: AuddSong): Song {
  const links: Record<string, string> = {};
  if (song.song_link) links.song_link = song.song_link;
  if (song.spotify?.external_urls?.spotify) links.spotify = song.spotify.external_urls.spotify;
  if (song.apple_music?.url) links.apple_music = song.apple_music.url;
  const ms = song.spotify?.duration_ms ?? song.apple_music?.durationInMillis;
  // Apple's artwork URL is a template ({w}x{h}); Spotify's first album image is the largest
  const artwork = song.apple_music?.artwork?.url?.replace('{w}', '600').replace('{h}', '600');
  return {
    title: song.title!,
    artist: song.artist!,
    artists: [song.artist!],
    album: song.album || null,
    release_date: song.release_date || null,
    label: song.label || null,
    timecode: song.timecode || null,
    duration: typeof ms === 'number' ? Math.round(ms / 1000) : null,
    score: null,
    engine: 'audd',
    acoustid_id: null,
    musicbrainz_id: null,
    url: song.song_link ?? links.spotify ?? links.apple_music ?? null,
    thumbnail: song.spotify?.album?.images?.[0]?.url ?? artwork ?? null,
    links,
    // Apple Music lists the catch-all "Music" among a song's genres: left out
    genres: (song.apple_music?.genreNames ?? []).filter((g) => typeof g === 'string' && g && g !== 'Music'),
  };
}
