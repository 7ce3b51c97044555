import { playerClock } from '../../core/player-clock.js';

/**
 * Spotify Web API objects as the endpoints answer them: flat fields bots read
 * (title, artist, url, thumbnail, duration) plus Spotify's ids and links.
 */
interface Image {
  url?: string;
  width?: number | null;
}
interface Artist {
  name?: string;
}
export interface SpotifyTrack {
  id?: string;
  name?: string;
  duration_ms?: number;
  explicit?: boolean;
  popularity?: number;
  preview_url?: string | null;
  external_urls?: { spotify?: string };
  artists?: Artist[];
  album?: { name?: string; release_date?: string; images?: Image[] };
}
export interface SpotifyPlaylist {
  id?: string;
  name?: string;
  description?: string | null;
  external_urls?: { spotify?: string };
  images?: Image[] | null;
  owner?: { display_name?: string | null };
  tracks?: { total?: number; items?: { track?: SpotifyTrack | null }[] };
}

/** The largest picture (Spotify lists the widest first, but not on every object). */
export const largest = (images?: Image[] | null): string | null => [...(images ?? [])].sort((a, b) => (b.width ?? 0) - (a.width ?? 0))[0]?.url ?? null;

export function track(t: SpotifyTrack) {
  const ms = t.duration_ms ?? 0;
  return {
    id: t.id,
    title: t.name,
    artist: (t.artists ?? [])
      .map((a) => a.name)
      .filter(Boolean)
      .join(', '),
    album: t.album?.name ?? null,
    release_date: t.album?.release_date ?? null,
    duration: Math.round(ms / 1000),
    duration_text: playerClock(ms / 1000),
    popularity: t.popularity ?? null,
    explicit: t.explicit ?? false,
    thumbnail: largest(t.album?.images),
    preview_url: t.preview_url ?? null,
    url: t.external_urls?.spotify ?? `https://open.spotify.com/track/${t.id}`,
  };
}

export function playlist(p: SpotifyPlaylist) {
  return {
    id: p.id,
    title: p.name,
    description: p.description ?? '',
    owner: p.owner?.display_name ?? null,
    total_tracks: p.tracks?.total ?? null,
    thumbnail: largest(p.images),
    url: p.external_urls?.spotify ?? `https://open.spotify.com/playlist/${p.id}`,
  };
}
