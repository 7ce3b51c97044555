import t from 'tap';
import fs from 'node:fs';
import YAML from 'yaml';
import { fetchArgs, infoArgs, searchArgs } from '../../engine/features/media/ytdlp.js';
import { ytdlpFailure } from '../../engine/features/media/ytdlp-errors.js';
import { extraArgs } from '../../engine/features/media/settings.js';
import { ffmpegArgs, parseProbe } from '../../engine/features/media/ffmpeg-args.js';
import { ToolFailed } from '../../engine/features/media/child.js';

t.test('yt-dlp: the user URL only ever comes after --', async (t) => {
  const hostile = '--exec=touch /tmp/pwned';
  const args = infoArgs(hostile);
  t.same(args.slice(-2), ['--', hostile]);
  t.equal(args.indexOf(hostile), args.length - 1, 'nowhere else');
  t.ok(args.includes('--ignore-config'), 'a host config file cannot add options');
  t.ok(args.includes('--no-playlist'));
  t.ok(args.includes('--dump-single-json'));
  t.same(infoArgs('https://x.test/v', { proxy: 'http://127.0.0.1:9' }).slice(-5), [
    '--proxy',
    'http://127.0.0.1:9',
    '--dump-single-json',
    '--',
    'https://x.test/v',
  ]);
  t.same(searchArgs('-rf artist - song').slice(-2), ['--', 'ytsearch1:-rf artist - song']);
});

t.test('yt-dlp fetch: reuses the resolved info and writes to stdout', async (t) => {
  const args = fetchArgs('/tmp/job/item.info.json', '137');
  t.same(args.slice(args.indexOf('--load-info-json'), args.indexOf('--load-info-json') + 2), ['--load-info-json', '/tmp/job/item.info.json']);
  t.same(args.slice(args.indexOf('--format'), args.indexOf('--format') + 2), ['--format', '137']);
  t.same(args.slice(-2), ['--output', '-']);
  t.notOk(args.includes('--max-filesize'), 'the size cap is ours (yt-dlp would skip with exit 0)');
});

t.test('ffmpeg: MP3 profile is libmp3lame CBR at the asked rate, inputs are local only', async (t) => {
  const args = ffmpegArgs({ inputs: ['pipe:3'], profile: { kind: 'audio', kbps: 128 }, output: 'pipe:1', title: 'Song', maxDurationS: 600 });
  const at = (flag: string) => args[args.indexOf(flag) + 1];
  t.equal(at('-c:a'), 'libmp3lame');
  t.equal(at('-b:a'), '128k');
  t.equal(at('-f'), 'mp3');
  t.equal(at('-protocol_whitelist'), 'file,pipe', 'no network protocol can be opened by ffmpeg');
  t.ok(args.indexOf('-protocol_whitelist') < args.indexOf('-i'), 'whitelist applies to the input');
  t.equal(at('-t'), '600', 'hard stop at the duration limit');
  t.equal(at('-metadata'), 'title=Song');
  t.equal(args.at(-1), 'pipe:1');
  t.ok(args.includes('-nostdin'));
});

t.test('ffmpeg: MP4 profile copies or transcodes, file vs fragmented pipe', async (t) => {
  const copy = ffmpegArgs({
    inputs: ['/j/input-0', 'pipe:3'],
    profile: { kind: 'video', height: 720, copyVideo: true, copyAudio: true, scale: false },
    output: '/j/out.mp4',
    maxDurationS: 60,
  });
  t.equal(copy.filter((a) => a === '-protocol_whitelist').length, 2, 'whitelist before every input');
  t.same(copy.slice(copy.indexOf('-map'), copy.indexOf('-map') + 4), ['-map', '0:v:0', '-map', '1:a:0?'], 'video from the first input, audio from the second');
  t.equal(copy[copy.indexOf('-c:v') + 1], 'copy');
  t.equal(copy[copy.indexOf('-movflags') + 1], '+faststart', 'a file gets its index up front');
  t.notOk(copy.includes('-vf'));
  const transcode = ffmpegArgs({
    inputs: ['pipe:3'],
    profile: { kind: 'video', height: 480, copyVideo: false, copyAudio: false, scale: true },
    output: 'pipe:1',
    maxDurationS: 60,
  });
  t.equal(transcode[transcode.indexOf('-c:v') + 1], 'libx264');
  t.equal(transcode[transcode.indexOf('-c:a') + 1], 'aac');
  t.match(transcode[transcode.indexOf('-vf') + 1], /min\(480\\,ih\)/, 'short side capped at 480, never upscaled');
  t.match(transcode[transcode.indexOf('-movflags') + 1], /frag_keyframe\+empty_moov/, 'a pipe gets fragmented MP4');
  t.equal(transcode[transcode.indexOf('-map') + 3], '0:a:0?', 'one input: audio from it, if any');
});

t.test('ffprobe output: cover art is not video; the short side is kept', async (t) => {
  const probe = parseProbe(
    JSON.stringify({
      format: { duration: '12.5' },
      streams: [
        { codec_type: 'audio', codec_name: 'mp3' },
        { codec_type: 'video', codec_name: 'mjpeg', width: 500, height: 500, disposition: { attached_pic: 1 } },
      ],
    }),
  );
  t.same(probe, { duration: 12.5, video: undefined, audio: { codec: 'mp3' } });
  const portrait = parseProbe(JSON.stringify({ format: {}, streams: [{ codec_type: 'video', codec_name: 'h264', width: 720, height: 1280 }] }));
  t.same(portrait, { duration: undefined, video: { codec: 'h264', lines: 720 }, audio: undefined });
});

t.test('yt-dlp failures map to client-facing errors without echoing stderr', async (t) => {
  const fail = (stderr: string) => ytdlpFailure(new ToolFailed('yt-dlp', 1, stderr)) as { status?: number; code?: string; message: string };
  t.match(fail('ERROR: Unsupported URL: https://example.com/'), { status: 400, code: 'unsupported_url' });
  t.match(fail('ERROR: [youtube] abc: Video unavailable'), { status: 404, code: 'media_unavailable' });
  t.match(fail("ERROR: [youtube] abc: Sign in to confirm you're not a bot"), { status: 502, code: 'login_required' });
  const other = fail('ERROR: secret-token-in-url https://x/?key=abc');
  t.match(other, { status: 502 });
  t.notMatch(other.message, /secret|key=/, 'stderr is summarised, not shown');
  t.match(ytdlpFailure(new ToolFailed('yt-dlp', null, 'spawn yt-dlp ENOENT')), { status: 502, message: /could not be started/ });
});

t.test('host options: cookies and extra arguments go before the user input, split like a shell would', async (t) => {
  const host = {
    cookiesFile: '/etc/manifold/cookies.txt',
    extraArgs: extraArgs('--extractor-args "youtube:player_client=web;po_token=web+AB CD" --sleep-requests 1'),
  };
  t.same(host.extraArgs, ['--extractor-args', 'youtube:player_client=web;po_token=web+AB CD', '--sleep-requests', '1']);
  for (const args of [infoArgs('https://x.test/v', { host }), searchArgs('song', { host }), fetchArgs('/tmp/i.json', '18', { host })]) {
    const at = args.indexOf('--cookies');
    t.same(args.slice(at, at + 2), ['--cookies', '/etc/manifold/cookies.txt']);
    t.ok(args.includes('youtube:player_client=web;po_token=web+AB CD'));
    const end = args.indexOf('--');
    if (end !== -1) t.ok(at < end && args.indexOf('--sleep-requests') < end, 'before --');
  }
  t.same(extraArgs(undefined), []);
  t.same(extraArgs('   '), []);
  t.throws(() => extraArgs('--exec rm; rm -rf /'), /plain arguments/);
  t.throws(() => extraArgs('--output *.mp4'), /plain arguments/);
  t.notOk(infoArgs('https://x.test/v').includes('--cookies'), 'nothing without host options');
});

t.test('recorded yt-dlp failures fall into their documented classes', async (t) => {
  const cases = YAML.parse(fs.readFileSync(new URL('./recorded/ytdlp-errors.yaml', import.meta.url), 'utf8')) as { code: string; stderr: string }[];
  const status: Record<string, number> = { login_required: 502, media_unavailable: 404, unsupported_url: 400, extractor_broken: 502, upstream_error: 502 };
  for (const { code, stderr } of cases) {
    const error = ytdlpFailure(new ToolFailed('yt-dlp', 1, stderr)) as { status?: number; code?: string; message: string };
    t.match(error, { code, status: status[code] }, stderr.split('\n').at(-1)!.slice(0, 90));
    t.notMatch(error.message, /https?:\/\/|[A-Za-z0-9_-]{11}:/, 'no URL or video id from stderr in the message');
  }
  t.ok(new Set(cases.map((c) => c.code)).size >= 5, 'every class has recorded cases');
});
