import type { YtInfo } from './ytdlp.js';

/**
 * What a downloader answers in `result`. Every shape carries the standard fields
 * (download_url, title, thumbnail, quality, duration, format, size, uploader); a
 * platform shape adds the field names existing clients of that platform's
 * downloader read (shared/reference/peer-endpoints.md §3), pointing at the same files.
 */

/** The item's metadata kept with each produced file, so a reuse answers like the first call. */
export interface ItemMeta {
  id?: string;
  title: string;
  duration?: number;
  thumbnail?: string;
  uploader?: string;
  uploader_id?: string;
  description?: string;
  view_count?: number;
  like_count?: number;
  comment_count?: number;
  share_count?: number;
  /** YYYY-MM-DD */
  upload_date?: string;
  source_url?: string;
  extractor?: string;
}

/** One produced file. */
export interface Produced {
  meta: ItemMeta;
  format: 'mp3' | 'mp4';
  quality: string;
  size: number;
  filename: string;
  download_url: string;
  expires_at: string;
}

export const SHAPES = [
  'standard',
  'youtube',
  'ytdl',
  'aio',
  'tiktok',
  'instagram',
  'facebook',
  'twitter',
  'pinterest',
  'dailymotion',
  'snack',
  'spotify',
] as const;
export type Shape = (typeof SHAPES)[number];

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The best thumbnail: yt-dlp's chosen one, else the widest of the list. */
function thumbnailOf(info: YtInfo): string | undefined {
  if (str(info.thumbnail)) return info.thumbnail!;
  const list = [...(info.thumbnails ?? [])].filter((t) => str(t.url));
  list.sort((a, b) => (b.width ?? 0) - (a.width ?? 0));
  return list[0]?.url;
}

/** yt-dlp's YYYYMMDD as YYYY-MM-DD. */
const isoDate = (v: unknown) => (typeof v === 'string' && /^\d{8}$/.test(v) ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6)}` : undefined);

export function metaOf(info: YtInfo): ItemMeta {
  const meta: ItemMeta = {
    id: str(info.id),
    title: str(info.title) ?? str(info.id) ?? 'media',
    duration: num(info.duration),
    thumbnail: thumbnailOf(info),
    uploader: str(info.uploader) ?? str(info.channel),
    uploader_id: str(info.uploader_id),
    description: str(info.description),
    view_count: num(info.view_count),
    like_count: num(info.like_count),
    comment_count: num(info.comment_count),
    share_count: num(info.repost_count),
    upload_date: isoDate(info.upload_date),
    source_url: str(info.webpage_url),
    extractor: str(info.extractor_key),
  };
  return Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined)) as ItemMeta;
}

/** A file name a client can save as: the title without path or control characters, plus the extension. */
export function safeFilename(title: string, ext: string): string {
  const base = title
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '') // no hidden file, no "../" left over
    .trim()
    .slice(0, 120);
  return `${base || 'media'}.${ext}`;
}

function standard(primary: Produced): Record<string, unknown> {
  const { meta } = primary;
  return {
    title: meta.title,
    duration: meta.duration ?? null,
    thumbnail: meta.thumbnail ?? null,
    uploader: meta.uploader ?? null,
    format: primary.format,
    quality: primary.quality,
    size: primary.size,
    filename: primary.filename,
    download_url: primary.download_url,
    expires_at: primary.expires_at,
    source_url: meta.source_url ?? null,
  };
}

/** `files[0]` is the primary output; platform shapes may use a second one (audio next to video). */
export function shapeResult(shape: Shape, files: Produced[]): Record<string, unknown> {
  const [primary] = files;
  const video = files.find((f) => f.format === 'mp4');
  const audio = files.find((f) => f.format === 'mp3');
  const { meta } = primary;
  const base = standard(primary);
  // YouTube: the video's id, channel (`author`), upload date and views, and each file under the other names clients read
  const youtube = {
    ...base,
    id: meta.id ?? null,
    author: meta.uploader ?? null,
    uploadDate: meta.upload_date ?? null,
    viewCount: meta.view_count ?? null,
    thumb: meta.thumbnail ?? null,
    url: primary.download_url,
    downloadUrl: primary.download_url,
    url_audio: audio?.download_url ?? null,
    url_video: video?.download_url ?? null,
  };
  switch (shape) {
    case 'standard':
      return base;
    case 'youtube':
      return youtube;
    case 'ytdl':
      // `audi_quality` (sic) is the name clients of ytdl read; both spellings are kept.
      // `media`: one per file, `format` naming its quality and container ("720p .mp4") as ytv's clients match on it
      return {
        ...youtube,
        media: files.map((f) => ({ quality: f.quality, format: `${f.quality} .${f.format}`, download_url: f.download_url })),
        video_url: video?.download_url ?? null,
        audio_url: audio?.download_url ?? null,
        video_quality: video?.quality ?? null,
        audio_quality: audio?.quality ?? null,
        audi_quality: audio?.quality ?? null,
      };
    case 'aio':
      return { ...base, type: primary.format === 'mp4' ? 'video' : 'audio', url: primary.download_url };
    case 'tiktok':
      return {
        ...base,
        videoUrl: video?.download_url ?? null,
        audioUrl: audio?.download_url ?? null,
        author: { name: meta.uploader ?? null, username: meta.uploader_id ?? null },
        username: meta.uploader_id ?? meta.uploader ?? null,
        cover: meta.thumbnail ?? null,
        stats: {
          playCount: meta.view_count ?? null,
          likeCount: meta.like_count ?? null,
          commentCount: meta.comment_count ?? null,
          shareCount: meta.share_count ?? null,
        },
        video: video?.download_url ?? null,
        video_nowm: video?.download_url ?? null,
        video_hd: video?.download_url ?? null,
        music: audio?.download_url ?? null,
      };
    case 'instagram':
      return {
        ...base,
        type: video ? 'video' : 'audio',
        url: primary.download_url,
        username: meta.uploader_id ?? meta.uploader ?? null,
        caption: meta.description ?? null,
      };
    case 'facebook':
      return { ...base, video: primary.download_url, hd_video: primary.download_url, sd_video: primary.download_url, url: primary.download_url };
    case 'twitter':
      // one MP4 is made (at most the chosen height): every quality name points at it, and `videoUrls` lists it with its height
      return {
        ...base,
        url: primary.download_url,
        HD: primary.download_url,
        SD: primary.download_url,
        video_hd: primary.download_url,
        video_sd: primary.download_url,
        videoUrls: files.filter((f) => f.format === 'mp4').map((f) => ({ quality: f.quality, url: f.download_url })),
        description: meta.description ?? null,
        desc: meta.description ?? null,
        thumb: meta.thumbnail ?? null,
      };
    case 'pinterest':
      return {
        ...base,
        description: meta.description ?? null,
        media: files.map((f) => ({ type: f.quality, format: f.format.toUpperCase(), download_url: f.download_url })),
      };
    case 'dailymotion':
      return { ...base, formats: files.map((f) => ({ quality: f.quality, format: f.format, url: f.download_url })) };
    case 'snack':
      // Snack Video's clients read the MP4 as `media`, the uploader as `author` and the counts by these names
      return {
        ...base,
        media: primary.download_url,
        author: meta.uploader ?? null,
        like: meta.like_count ?? null,
        comment: meta.comment_count ?? null,
        share: meta.share_count ?? null,
        views: meta.view_count ?? null,
      };
    case 'spotify':
      return { ...base, artist: meta.uploader ?? null };
  }
}
