import type { Readable } from 'node:stream';

/**
 * ffmpeg's own progress report (`-progress pipe:N`): blocks of `key=value` lines, one
 * block about every half second and one at the end (`progress=end`). The position
 * written so far (`out_time_us`, microseconds of output) over the source's duration is
 * how far the conversion is — and, with the inputs piped from yt-dlp, the download too.
 * `report` gets a fraction 0–1 that never goes back; without a known duration only the
 * end is reported.
 */
export function readFfmpegProgress(stream: Readable, durationS: number | undefined, report: (fraction: number) => void): void {
  let buffered = '';
  let last = 0;
  const emit = (fraction: number) => {
    const clamped = Math.min(1, Math.max(last, fraction));
    if (clamped === last) return;
    last = clamped;
    report(clamped);
  };
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const [key, value] = line.trim().split('=', 2);
      if (key === 'out_time_us' && durationS && /^\d+$/.test(value)) emit(Number(value) / 1e6 / durationS);
      else if (key === 'progress' && value === 'end') emit(1);
    }
  });
  // the pipe closes when ffmpeg exits; a read error there is ffmpeg's failure, reported by its exit code
  stream.on('error', () => undefined);
}
