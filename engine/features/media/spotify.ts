import { upstreamError } from '../../core/errors.js';

/**
 * Spotify tracks: Spotify serves no audio to download, so the track's metadata comes
 * from its public embed page and the audio from the best YouTube match for
 * "artists - title". The embed page carries the track as JSON in a Next.js data
 * script; the parser looks for the track object by shape rather than by a fixed
 * path, which survives small changes to the page's layout.
 */
export interface SpotifyTrack {
  id: string;
  title: string;
  artists: string[];
  /** Seconds. */
  duration?: number;
  thumbnail?: string;
}

export const trackId = (url: string): string | undefined => /\/track\/([A-Za-z0-9]{22})/.exec(url)?.[1];

type Json = Record<string, unknown>;

/** The first object (depth-first) that looks like a track: a name and a list of named artists. */
function findTrack(node: unknown, depth = 0): Json | undefined {
  if (!node || typeof node !== 'object' || depth > 12) return undefined;
  const obj = node as Json;
  const artists = obj.artists;
  if ((typeof obj.name === 'string' || typeof obj.title === 'string') && Array.isArray(artists) && artists.some((a) => typeof (a as Json)?.name === 'string')) {
    return obj;
  }
  for (const value of Object.values(obj)) {
    const found = findTrack(value, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The largest cover image of a track object, if it has any. */
function coverOf(track: Json): string | undefined {
  const sources = ((track.coverArt as Json | undefined)?.sources ?? (track.visualIdentity as Json | undefined)?.image ?? []) as Json[];
  const sorted = [...sources].filter((s) => typeof s.url === 'string').sort((a, b) => Number(b.width ?? 0) - Number(a.width ?? 0));
  return sorted[0]?.url as string | undefined;
}

export function parseEmbedPage(html: string, id: string): SpotifyTrack {
  const script = /<script[^>]*id="__NEXT_DATA__"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
  let data: unknown;
  try {
    data = script ? JSON.parse(script) : undefined;
  } catch {
    data = undefined;
  }
  const track = findTrack(data);
  if (!track) throw upstreamError('spotify', 'the embed page carries no track data');
  const raw = track.duration;
  const duration = typeof raw === 'number' ? raw : Number((raw as Json | undefined)?.totalMilliseconds);
  return {
    id,
    title: String(track.name ?? track.title),
    artists: (track.artists as Json[]).map((a) => a?.name).filter((n): n is string => typeof n === 'string'),
    duration: Number.isFinite(duration) && duration > 0 ? Math.round(duration / 1000) : undefined,
    thumbnail: coverOf(track),
  };
}

/** What to search YouTube for: artists and title, as music uploads are usually named. */
export const youtubeQuery = (track: SpotifyTrack): string => `${track.artists.join(', ')} - ${track.title}`.slice(0, 200);
