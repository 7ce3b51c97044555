import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { YtInfo } from '../../engine/media/ytdlp.js';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'recorded');

/** A yt-dlp `--dump-single-json` output from test/media/recorded/ (see its README). */
export const recorded = (name: string): YtInfo => JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')) as YtInfo;
