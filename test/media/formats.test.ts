import t from 'tap';
import { chooseFormats, knownSize, pipeable } from '../../engine/features/media/formats.js';
import { recorded } from './recorded.js';

const ids = (choice: ReturnType<typeof chooseFormats>) => choice?.inputs.map((f) => f.format_id);

t.test('YouTube: audio is an audio-only stream, never a storyboard', async (t) => {
  const info = recorded('youtube-video');
  const choice = chooseFormats(info, { kind: 'audio', kbps: 128 });
  t.same(ids(choice), ['251'], 'the audio-only stream with the highest bit rate (Opus 135 kbps)');
  t.equal(choice!.inputs[0].vcodec, 'none');
});

t.test('YouTube: video merges the tallest fitting video-only stream with audio', async (t) => {
  const info = recorded('youtube-video');
  t.same(ids(chooseFormats(info, { kind: 'video', height: 720 })), ['136', '140'], '720p: H.264 720p + AAC');
  t.same(ids(chooseFormats(info, { kind: 'video', height: 1080 })), ['137', '140'], '1080p: H.264 1080p + AAC');
  t.same(ids(chooseFormats(info, { kind: 'video', height: 360 })), ['18'], '360p: the progressive stream wins a tie');
  t.same(ids(chooseFormats(info, { kind: 'video', height: 144 })), ['160', '140']);
  t.equal(chooseFormats(info, { kind: 'video', height: 720 })!.height, 720);
});

t.test('TikTok: portrait video counts its short side; the watermarked copy loses', async (t) => {
  const info = recorded('tiktok-video');
  const choice = chooseFormats(info, { kind: 'video', height: 720 });
  t.same(ids(choice), ['play_addr-0'], '576x1024 is 576p, so it fits 720p; preference -2 (watermark) is skipped');
  t.equal(choice!.height, 576);
  t.same(ids(chooseFormats(info, { kind: 'video', height: 360 })), ['play_addr-0'], 'nothing fits 360p: the best candidate above, scaled by ffmpeg');
  t.same(ids(chooseFormats(info, { kind: 'audio', kbps: 128 })), ['play_addr-0'], 'no audio-only stream: audio comes from a video');
});

t.test('generic direct link and OpenGraph page: the item is its own format', async (t) => {
  t.same(ids(chooseFormats(recorded('generic-direct-mp4'), { kind: 'audio', kbps: 128 })), ['mp4']);
  t.same(ids(chooseFormats(recorded('generic-direct-mp4'), { kind: 'video', height: 720 })), ['mp4']);
  const page = recorded('generic-opengraph-page');
  const choice = chooseFormats(page, { kind: 'video', height: 720 });
  t.equal(choice?.inputs.length, 1);
  t.equal(choice?.inputs[0].url, 'http://127.0.0.1:8000/clip.mp4', 'the og:video URL');
});

t.test('nothing usable: no choice', async (t) => {
  t.equal(
    chooseFormats({ id: 'x', formats: [{ format_id: 'sb0', format_note: 'storyboard', ext: 'mhtml', url: 'https://x/sb' }] }, { kind: 'audio', kbps: 128 }),
    undefined,
  );
  t.equal(
    chooseFormats({ id: 'x', formats: [{ format_id: 'v', vcodec: 'avc1', acodec: 'none', url: 'https://x/v' }] }, { kind: 'audio', kbps: 128 }),
    undefined,
  );
});

t.test('pipeable: fragmented and stream containers yes, a plain MP4 no', async (t) => {
  const yt = recorded('youtube-video').formats!;
  const byId = (id: string) => yt.find((f) => f.format_id === id)!;
  t.ok(pipeable(byId('140')), 'DASH m4a');
  t.ok(pipeable(byId('251')), 'WebM');
  t.notOk(pipeable(byId('18')), 'progressive MP4 (index may be at the end)');
  t.notOk(pipeable(recorded('generic-direct-mp4').formats![0]), 'direct MP4 link');
  t.ok(pipeable({ format_id: 'hls-720', protocol: 'm3u8_native', ext: 'mp4' }), 'HLS');
});

t.test('knownSize: the sum when every input tells, else unknown', async (t) => {
  const yt = recorded('youtube-video');
  t.equal(knownSize(chooseFormats(yt, { kind: 'video', height: 720 })!.inputs), 29100000 + 3433000);
  t.equal(knownSize(chooseFormats(yt, { kind: 'video', height: 360 })!.inputs), 13300000, 'filesize_approx when filesize is null');
  t.equal(knownSize(recorded('generic-direct-mp4').formats!), undefined);
});
