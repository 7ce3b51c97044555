import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/**
 * Offline media for the tests: short clips made with ffmpeg's lavfi sources, served
 * by a local HTTP server (with single byte ranges, as yt-dlp and players ask for them).
 * `throttle` serves a file slowly, so a test can catch a job while it runs;
 * `redirects` answers a name with a 302 to another URL.
 */
export interface MediaServer {
  dir: string;
  url(name: string): string;
  close(): Promise<void>;
}

const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'inherit' });

/** 3 s of 320x240 test pattern + 440 Hz tone, H.264/AAC in a plain MP4 (index at the end). */
export function makeClip(dir: string, name = 'clip.mp4', seconds = 3): string {
  const file = path.join(dir, name);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=320x240:rate=25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    file,
  ]);
  return file;
}

/** A long, cheap-to-make audio file (Opus in WebM), for jobs that must still be running mid-test. */
export function makeLongAudio(dir: string, name = 'long.webm', seconds = 1200): string {
  const file = path.join(dir, name);
  ffmpeg(['-f', 'lavfi', '-i', `sine=frequency=330:sample_rate=48000:duration=${seconds}`, '-c:a', 'libopus', '-b:a', '24k', file]);
  return file;
}

export async function startMediaServer(options: { throttle?: Record<string, number>; redirects?: Record<string, string> } = {}): Promise<MediaServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-media-'));
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    const location = options.redirects?.[name];
    if (location) return void res.writeHead(302, { location }).end();
    const file = path.join(dir, path.basename(name));
    if (!fs.existsSync(file)) return void res.writeHead(404).end();
    const size = fs.statSync(file).size;
    const type = name.endsWith('.html') ? 'text/html' : name.endsWith('.webm') ? 'video/webm' : 'video/mp4';
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    res.writeHead(range ? 206 : 200, {
      'content-type': type,
      'content-length': end - start + 1,
      'accept-ranges': 'bytes',
      ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
    });
    const stream = fs.createReadStream(file, { start, end, highWaterMark: 16 * 1024 });
    const delay = options.throttle?.[name];
    if (!delay) return void stream.pipe(res);
    stream.on('data', (chunk) => {
      stream.pause();
      res.write(chunk, () => setTimeout(() => stream.resume(), delay));
    });
    stream.on('end', () => res.end());
    res.on('close', () => stream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    dir,
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

export interface ProbeResult {
  format: { duration?: string; bit_rate?: string; format_name?: string };
  streams: { codec_type: string; codec_name: string; bit_rate?: string; height?: number }[];
}

export function ffprobe(file: string): ProbeResult {
  return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], { encoding: 'utf8' }));
}

/** MD5s of the decoded frames of one stream type ('a' or 'v'): equal lists mean the same decoded media. */
export function decodedHashes(file: string, stream: 'a' | 'v'): string[] {
  const out = execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-map', `0:${stream}:0`, '-f', 'framemd5', '-'], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(',').pop()!.trim());
}

/** Wait for a condition in steps of 100 ms (a test fails on the condition, never on the time it took). */
export async function until(check: () => boolean, tries = 100): Promise<boolean> {
  for (let i = 0; i < tries && !check(); i++) await new Promise((r) => setTimeout(r, 100));
  return check();
}

/** Whether a process of this pid exists. */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
