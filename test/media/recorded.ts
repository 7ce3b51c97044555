import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { YtInfo } from '../../engine/features/media/ytdlp.js';
import { safeFilename, type Produced } from '../../engine/features/media/result-shapes.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'recorded');

/** A yt-dlp `--dump-single-json` output from test/media/recorded/ (see its README). */
export const recorded = (name: string): YtInfo => JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')) as YtInfo;

/** One file a downloader made from that output, as result-shapes receives it. */
export const file = (meta: Produced['meta'], format: 'mp3' | 'mp4', quality: string): Produced => ({
  meta,
  format,
  quality,
  size: 1234,
  filename: safeFilename(meta.title, format),
  download_url: `https://manifold.test/files/${format}-hash.${format}`,
  expires_at: '2026-11-22T16:00:00.000Z',
});
