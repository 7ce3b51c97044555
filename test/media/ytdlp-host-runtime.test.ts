import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadConfig } from '../../engine/platform/config.js';
import { engineFeatures } from '../../engine/app/features.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { jsRuntimes, mediaSettings } from '../../engine/features/media/settings.js';
import { infoArgs } from '../../engine/features/media/ytdlp.js';
import { serve, TEST_KEY, type Served } from '../support/serve.js';
import { EngineScope } from '../../engine/platform/scope.js';

/**
 * YTDLP_JS_RUNTIMES: the JavaScript runtime yt-dlp runs YouTube's player code with
 * (`--js-runtimes`, yt-dlp 2025.11.12 and later). The image sets `node`; the runs of the
 * downloaders and the search get it, before `--` and before the host's extra arguments.
 */
t.test('YTDLP_JS_RUNTIMES is read once, checked at boot', async (t) => {
  t.same(jsRuntimes(undefined), [], 'none unless set: yt-dlp keeps its own default (deno)');
  t.same(jsRuntimes('node'), ['node']);
  t.same(jsRuntimes(' deno , node:/usr/local/bin/node '), ['deno', 'node:/usr/local/bin/node']);
  t.throws(() => jsRuntimes('nodejs'), /YTDLP_JS_RUNTIMES: "nodejs" is not one of deno, node, quickjs, bun/);
  t.throws(() => jsRuntimes('node --exec x'), /YTDLP_JS_RUNTIMES/, 'no way to smuggle another option in');
  const settings = mediaSettings(loadConfig({ YTDLP_JS_RUNTIMES: 'node', YTDLP_EXTRA_ARGS: '--no-js-runtimes' }));
  const args = infoArgs('https://x.test/v', { host: settings.ytdlpHost });
  const at = (word: string) => args.indexOf(word);
  t.equal(args[at('--js-runtimes') + 1], 'node');
  t.ok(at('--js-runtimes') < at('--no-js-runtimes'), "the host's extra arguments come after, so they can override");
  t.ok(at('--no-js-runtimes') < at('--'), 'all before --');
});

const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'search')).filter((e) => e.path === '/api/search/youtube');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-ytdlp-runtime-'));
const log = path.join(work, 'args.log');
const fake = path.join(work, 'yt-dlp');
// logs its arguments, one per line, and answers an empty search
fs.writeFileSync(
  fake,
  `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${log}'; done\necho '=== end of run' >> '${log}'\necho '{"_type":"playlist","id":"q","entries":[]}'\n`,
  {
    mode: 0o755,
  },
);
const engines: Served[] = [];
t.teardown(async () => {
  for (const served of engines) await served.close();
  fs.rmSync(work, { recursive: true, force: true });
});
const lastRun = () => fs.readFileSync(log, 'utf8').split('=== end of run\n').filter(Boolean).at(-1)!.trim().split('\n');

t.test('a yt-dlp run gets --js-runtimes from the setting, and none without it', async (t) => {
  for (const [setting, expected] of [
    ['node', ['--js-runtimes', 'node']],
    [undefined, []],
  ] as const) {
    const served = await serve({ YTDLP_PATH: fake, YTDLP_JS_RUNTIMES: setting }, { endpoints });
    engines.push(served);
    const res = await fetch(`${served.url}/api/search/youtube?${new URLSearchParams({ q: 'lofi', apikey: TEST_KEY })}`);
    t.equal(res.status, 200, await res.text());
    const args = lastRun();
    const at = args.indexOf('--js-runtimes');
    t.same(at === -1 ? [] : args.slice(at, at + 2), expected, `YTDLP_JS_RUNTIMES=${setting ?? '(unset)'}`);
  }
});

t.test('an unknown runtime stops the boot, naming the variable', async (t) => {
  // the media feature's check, which the engine runs on every feature as it is built
  const media = engineFeatures().find((f) => f.name === 'media')!;
  t.throws(() => media.check!(loadConfig({ YTDLP_JS_RUNTIMES: 'nodejs' }), new EngineScope()), /YTDLP_JS_RUNTIMES/);
  t.doesNotThrow(() => media.check!(loadConfig({ YTDLP_JS_RUNTIMES: 'node' }), new EngineScope()));
});
