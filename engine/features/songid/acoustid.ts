import type { AdapterSetup } from '../../contract/call.js';
import { upstreamError } from '../../core/errors.js';
import type { Song } from './song.js';

/**
 * AcoustID's lookup (GET /v2/lookup, the key as `client` from the upstream spec): the
 * tracks whose fingerprints match, best score first, each with the MusicBrainz
 * recordings linked to it (`meta=recordings releasegroups compress`: titles, artists,
 * albums; `compress` drops repeated data). AcoustID matches whole recordings from
 * their start, so a clip cut from the middle of a song is usually not found.
 */
export const ACOUSTID_UPSTREAM = 'acoustid';

interface Artist {
  id?: string;
  name?: string;
  joinphrase?: string;
}
interface ReleaseGroup {
  id?: string;
  title?: string;
  type?: string;
  secondarytypes?: string[];
}
interface Recording {
  id?: string;
  title?: string;
  duration?: number;
  artists?: Artist[];
  releasegroups?: ReleaseGroup[];
}
interface LookupAnswer {
  status?: string;
  error?: { code?: number; message?: string };
  results?: { id?: string; score?: number; recordings?: Recording[] }[];
}

/** The best match, or undefined when no track (or none with a named recording) matches. */
export async function acoustidLookup(
  setup: Pick<AdapterSetup, 'upstreams'>,
  fingerprint: { fingerprint: string; duration: number },
  signal: AbortSignal,
): Promise<Song | undefined> {
  const answer = await setup.upstreams.call<LookupAnswer>(ACOUSTID_UPSTREAM, {
    path: '/v2/lookup',
    query: { format: 'json', meta: 'recordings releasegroups compress', duration: fingerprint.duration, fingerprint: fingerprint.fingerprint },
    signal,
  });
  if (answer?.status !== 'ok' || !Array.isArray(answer.results)) {
    throw upstreamError(ACOUSTID_UPSTREAM, answer?.error?.code !== undefined ? `error ${answer.error.code}` : 'not a lookup answer');
  }
  const ranked = [...answer.results].sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  for (const track of ranked) {
    const recording = track.recordings?.find((r) => r.title && r.artists?.length);
    if (recording && track.id) return toSong(track.id, track.score, recording);
  }
  return undefined;
}

function toSong(trackId: string, score: number | undefined, recording: Recording): Song {
  const artists = (recording.artists ?? []).filter((a) => a.name);
  // MusicBrainz credits carry their own join phrases ("A feat. B"); without them, a plain list
  const joined = artists.some((a) => a.joinphrase) ? artists.map((a) => `${a.name}${a.joinphrase ?? ''}`).join('') : artists.map((a) => a.name).join(', ');
  const album = mainReleaseGroup(recording.releasegroups ?? []);
  const links: Record<string, string> = { acoustid: `https://acoustid.org/track/${trackId}` };
  if (recording.id) links.musicbrainz = `https://musicbrainz.org/recording/${recording.id}`;
  if (album?.id) links.musicbrainz_release_group = `https://musicbrainz.org/release-group/${album.id}`;
  return {
    title: recording.title!,
    artist: joined.trim(),
    artists: artists.map((a) => a.name!),
    album: album?.title ?? null,
    release_date: null,
    label: null,
    timecode: null,
    duration: typeof recording.duration === 'number' ? recording.duration : null,
    score: typeof score === 'number' ? score : null,
    engine: 'acoustid',
    acoustid_id: trackId,
    musicbrainz_id: recording.id ?? null,
    url: links.musicbrainz ?? links.acoustid,
    thumbnail: null,
    links,
    genres: [],
  };
}

/** The album a listener would name: a plain studio album first, then a single or EP, then any (compilations last). */
function mainReleaseGroup(groups: ReleaseGroup[]): ReleaseGroup | undefined {
  const plain = groups.filter((g) => g.title && !g.secondarytypes?.length);
  return plain.find((g) => g.type === 'Album') ?? plain.find((g) => g.type === 'Single' || g.type === 'EP') ?? plain[0] ?? groups.find((g) => g.title);
}
