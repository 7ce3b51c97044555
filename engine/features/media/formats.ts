import type { YtFormat, YtInfo } from './ytdlp.js';

/**
 * Format choice from a resolved item: ours, not yt-dlp's selector language, so it
 * is a pure function tested against recorded `--dump-json` output, and so the
 * pipeline knows each input's container before deciding to pipe or to spool.
 */
export type Target = { kind: 'audio'; kbps: number } | { kind: 'video'; height: number };

export interface Choice {
  /** One input (audio, or progressive video), or video + audio to merge. */
  inputs: YtFormat[];
  /** Short side of the picked video stream, when known. */
  height?: number;
}

const AUDIO_EXTS = new Set(['mp3', 'm4a', 'aac', 'opus', 'ogg', 'oga', 'wav', 'flac', 'weba']);

/** A codec field is the string "none" when the stream is absent; null/undefined means unknown. */
const hasAudio = (f: YtFormat) => f.acodec !== 'none';
const hasVideo = (f: YtFormat) => f.vcodec !== 'none' && !(f.vcodec == null && AUDIO_EXTS.has(f.ext ?? ''));
const usable = (f: YtFormat) => Boolean(f.url) && f.protocol !== 'mhtml' && f.ext !== 'mhtml' && f.format_note !== 'storyboard';
const bitrate = (f: YtFormat) => f.abr ?? f.tbr ?? 0;
const preferMp4 = (f: YtFormat) => (f.ext === 'mp4' || f.ext === 'm4a' ? 1 : 0);
/** The extractor's own ranking (TikTok marks its watermarked copy -2). */
const preference = (f: YtFormat) => f.preference ?? 0;

/**
 * The "p" number of a video: its short side, so 720p means 1280x720 and 720x1280
 * alike (portrait TikToks and Shorts); the height when the width is unknown.
 */
export const lines = (f: { width?: number | null; height?: number | null }): number => (f.width && f.height ? Math.min(f.width, f.height) : (f.height ?? 0));

/** The formats of an item; a single-format item (direct links, some extractors) is its own format. */
export function formatsOf(info: YtInfo): YtFormat[] {
  const list = info.formats?.length ? info.formats : info.url ? [info as YtFormat] : [];
  return list.filter(usable);
}

function best<T>(list: T[], ...keys: ((x: T) => number)[]): T | undefined {
  return [...list].sort((a, b) => {
    for (const key of keys) {
      const d = key(b) - key(a);
      if (d !== 0) return d;
    }
    return 0;
  })[0];
}

export function chooseFormats(info: YtInfo, target: Target): Choice | undefined {
  const formats = formatsOf(info);
  if (target.kind === 'audio') {
    const withAudio = formats.filter(hasAudio);
    // audio-only first (least to download), then the highest bitrate; else the smallest video carrying audio
    const audioOnly = best(
      withAudio.filter((f) => !hasVideo(f)),
      preference,
      bitrate,
      preferMp4,
    );
    const pick = audioOnly ?? best(withAudio, preference, (f) => -lines(f), bitrate);
    return pick ? { inputs: [pick] } : undefined;
  }
  const fits = (f: YtFormat) => lines(f) <= target.height;
  const videos = formats.filter(hasVideo);
  const progressive = best(
    videos.filter((f) => hasAudio(f) && fits(f)),
    preference,
    lines,
    preferMp4,
    bitrate,
  );
  const videoOnly = best(
    videos.filter((f) => !hasAudio(f) && fits(f)),
    preference,
    lines,
    preferMp4,
    bitrate,
  );
  const audio = best(
    formats.filter((f) => hasAudio(f) && !hasVideo(f)),
    preference,
    preferMp4,
    bitrate,
  );
  if (videoOnly && audio && (!progressive || lines(videoOnly) > lines(progressive))) {
    return { inputs: [videoOnly, audio], height: lines(videoOnly) || undefined };
  }
  if (progressive) return { inputs: [progressive], height: lines(progressive) || undefined };
  // nothing at or under the target: the smallest above it, scaled down by ffmpeg
  const smallest = best(videos.filter(hasAudio), preference, (f) => -lines(f), preferMp4) ?? best(videos, preference, (f) => -lines(f), preferMp4);
  if (!smallest) return undefined;
  const inputs = hasAudio(smallest) || !audio ? [smallest] : [smallest, audio];
  return { inputs, height: lines(smallest) || undefined };
}

/**
 * Can ffmpeg read this format from a pipe? Fragmented/segmented and stream-friendly
 * containers can; a plain MP4 may keep its index (moov) at the end, which ffmpeg can
 * only reach by seeking, so it is spooled to disk first (docs/contributing/decisions.md, Toolchain facts).
 */
export function pipeable(f: YtFormat): boolean {
  const protocol = f.protocol ?? '';
  if (/m3u8|dash|f4m|ism/.test(protocol)) return true;
  if (/_dash$/.test(f.container ?? '')) return true;
  return ['webm', 'mkv', 'mp3', 'ogg', 'opus', 'flv', 'ts', 'aac', 'wav', 'flac'].includes(f.ext ?? '');
}

/** Size of the download when the site tells; undefined when it does not. */
export const knownSize = (inputs: YtFormat[]): number | undefined => {
  const sizes = inputs.map((f) => f.filesize ?? f.filesize_approx ?? undefined);
  return sizes.every((s) => typeof s === 'number') ? sizes.reduce((a, b) => a! + b!, 0) : undefined;
};
