import type { YtInfo } from './ytdlp.js';
import { playerClock } from '../../core/player-clock.js';

/** One video of /api/search/youtube (and yts) as clients of the genre read it, whichever source found it. */
export interface YoutubeVideo {
  url: string;
  videoId: string;
  title: string;
  description?: string;
  thumbnail: string;
  /** The same link as `thumbnail`: some clients read `image`. */
  image: string;
  author: { name?: string; url?: string };
  /** Length as YouTube shows it on the thumbnail: `m:ss`, `h:mm:ss`, or `LIVE` for a live stream (absent when unknown). */
  timestamp?: string;
  /** Length in seconds. */
  seconds?: number;
  views?: number;
  published?: string;
  live: boolean;
}

const VIDEO_ID = /^[\w-]{11}$/;

/** An ISO 8601 duration as the Data API writes it (`PT1H0M22S`, `P1DT2H`; `P0D` for a live stream) in seconds; undefined when zero or unreadable. */
export function isoSeconds(iso: string | undefined): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso ?? '');
  if (!m) return undefined;
  const [days, hours, minutes, seconds] = m.slice(1).map((v) => Number(v ?? 0));
  return ((days * 24 + hours) * 60 + minutes) * 60 + seconds || undefined;
}

/** `timestamp` and `seconds` of a video: its clock, or `LIVE` (no length) while it streams. */
export function lengthFields(seconds: number | undefined, live: boolean): Pick<YoutubeVideo, 'timestamp' | 'seconds'> {
  if (live) return { timestamp: 'LIVE' };
  return seconds ? { timestamp: playerClock(seconds), seconds } : {};
}

/** The largest thumbnail yt-dlp lists (they come smallest first), else the one every video has. */
function thumbnailOf(entry: YtInfo): string {
  const listed = (entry.thumbnails ?? []).filter((t) => typeof t.url === 'string');
  const largest = listed.reduce<(typeof listed)[number] | undefined>((best, t) => (!best || (t.width ?? 0) >= (best.width ?? 0) ? t : best), undefined);
  return largest?.url ?? entry.thumbnail ?? `https://i.ytimg.com/vi/${entry.id}/hqdefault.jpg`;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * yt-dlp's flat `ytsearchN:` entries (`_type: url`, from its YouTube search extractor)
 * as videos. YouTube mixes channels and playlists into search results; those have no
 * 11-character video id and are left out.
 */
export function videosFromYtdlp(entries: YtInfo[]): YoutubeVideo[] {
  return entries
    .filter((e) => typeof e?.id === 'string' && VIDEO_ID.test(e.id))
    .map((e) => {
      const thumbnail = thumbnailOf(e);
      const seconds = count(e.duration);
      const url = text(e.url);
      const live = e.live_status === 'is_live' || e.is_live === true;
      return {
        url: url && /^https:\/\/www\.youtube\.com\/(watch\?v=|shorts\/)/.test(url) ? url : `https://www.youtube.com/watch?v=${e.id}`,
        videoId: e.id,
        title: text(e.title) ?? '',
        description: text(e.description),
        thumbnail,
        image: thumbnail,
        author: { name: text(e.channel) ?? text(e.uploader), url: text(e.channel_url) ?? text(e.uploader_url) },
        ...lengthFields(seconds, live),
        views: count(e.view_count) ?? count(e.concurrent_view_count),
        live,
      };
    });
}
