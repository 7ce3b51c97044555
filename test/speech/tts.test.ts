import { spawnSync } from 'node:child_process';
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { liveChildren } from '../../engine/features/media/child.js';
import { serve, TEST_KEY } from '../support/serve.js';

const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => e.path === '/api/tools/tts');
const served = await serve({}, { endpoints });
t.teardown(() => served.close());
const tts = async (params: Record<string, string>, signal?: AbortSignal) =>
  (await fetch(`${served.url}/api/tools/tts?${new URLSearchParams(params)}`, { headers: { 'x-api-key': TEST_KEY }, signal })).json();

/** Decode the whole MP3 (a broken frame fails ffmpeg) and measure what it holds. */
async function decode(url: string): Promise<{ seconds: number; meanDb: number }> {
  const mp3 = Buffer.from(await (await fetch(url)).arrayBuffer());
  const run = spawnSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'info',
      '-xerror',
      '-f',
      'mp3',
      '-i',
      'pipe:0',
      '-af',
      'volumedetect',
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      '16000',
      'pipe:1',
    ],
    { input: mp3, maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`not a decodable MP3: ${run.stderr}`);
  const meanDb = Number(/mean_volume: (-?[\d.]+) dB/.exec(run.stderr.toString())?.[1]);
  return { seconds: run.stdout.length / 2 / 16000, meanDb };
}

const sentence = 'The weather today is sunny with a light breeze from the west.';

t.test('English offline: a decodable MP3 whose length fits the text', async (t) => {
  const short = await tts({ text: sentence, lang: 'en' });
  t.match(short.result, { engine: 'festival', voice: 'festival-slt', mime: 'audio/mpeg' });
  const one = await decode(short.result.url);
  const words = sentence.split(' ').length;
  t.ok(one.seconds > words / 4 && one.seconds < words / 1.2, `${one.seconds.toFixed(2)} s for ${words} words`);
  t.ok(one.meanDb > -35, `speech, not silence (${one.meanDb} dB)`);
  t.ok(Math.abs(one.seconds - short.result.duration) < 0.2, 'the reported duration is the decoded one');

  const double = await tts({ text: `${sentence} ${sentence}`, lang: 'en' });
  const two = await decode(double.result.url);
  t.ok(two.seconds / one.seconds > 1.7 && two.seconds / one.seconds < 2.3, `twice the text, twice the speech (${(two.seconds / one.seconds).toFixed(2)}x)`);

  const fast = await decode((await tts({ text: sentence, lang: 'en', speed: '2' })).result.url);
  t.ok(fast.seconds / one.seconds > 0.4 && fast.seconds / one.seconds < 0.6, `speed=2 halves it (${(fast.seconds / one.seconds).toFixed(2)}x)`);
});

t.test('other languages through espeak-ng; text that looks like options or Scheme is just text', async (t) => {
  const es = await tts({ text: 'Buenos días, ¿cómo estás?', lang: 'es' });
  t.match(es.result, { engine: 'espeak-ng', voice: 'espeak-es' });
  t.ok((await decode(es.result.url)).seconds > 0.8);
  for (const voice of ['festival-slt', 'flite-slt', 'espeak-en-us']) {
    const odd = await tts({ text: '--help (quit) -w /tmp/x', voice });
    t.equal(odd.status, 200, `${voice} speaks it`);
    t.ok((await decode(odd.result.url)).seconds > 0.5);
  }
});

t.test('a client that leaves takes the synthesis down with it', async (t) => {
  const before = new Set(liveChildren());
  const controller = new AbortController();
  const pending = tts({ text: `${sentence} `.repeat(40), lang: 'en' }, controller.signal).catch(() => 'aborted');
  let started: number[] = [];
  for (let i = 0; i < 100 && !started.length; i++) {
    await new Promise((r) => setTimeout(r, 50));
    started = liveChildren().filter((pid) => !before.has(pid));
  }
  t.ok(started.length, 'text2wave was running');
  controller.abort();
  t.equal(await pending, 'aborted');
  for (let i = 0; i < 60 && liveChildren().some((pid) => started.includes(pid)); i++) await new Promise((r) => setTimeout(r, 50));
  t.same(
    liveChildren().filter((pid) => started.includes(pid)),
    [],
    'no synthesis process left',
  );
  for (const pid of started) t.throws(() => process.kill(pid, 0), 'the process is gone');
});
