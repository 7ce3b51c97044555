import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { describeVersion, releaseDate, ytdlpStatus } from '../../engine/features/media/ytdlp-version.js';

t.test('yt-dlp versions are dated: older than 60 days gets a warning', async (t) => {
  const now = new Date('2026-11-24T12:00:00Z');
  t.same(releaseDate('2023.03.04'), new Date('2023-03-04T00:00:00Z'));
  t.same(releaseDate('2025.10.22.232815'), new Date('2025-10-22T00:00:00Z'), 'nightly');
  t.equal(releaseDate('unknown'), undefined);
  t.match(describeVersion('yt-dlp', '2023.03.04', now), { version: '2023.03.04', age_days: 1361, warning: /1361 days old.*YTDLP_PATH/ });
  const fresh = describeVersion('yt-dlp', '2026.11.01', now);
  t.same(fresh, { path: 'yt-dlp', version: '2026.11.01', age_days: 23 }, 'no warning when recent');
  t.match(describeVersion('/opt/yt-dlp', null, now), { version: null, warning: /not installed/ });
});

t.test('the version is asked of the binary YTDLP_PATH names, once', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ytdlp-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const bin = path.join(dir, 'yt-dlp');
  const counter = path.join(dir, 'runs');
  fs.writeFileSync(bin, `#!/bin/sh\necho run >> ${counter}\necho 2024.01.02\n`, { mode: 0o755 });
  const first = await ytdlpStatus({ YTDLP_PATH: bin });
  t.match(first, { path: bin, version: '2024.01.02', warning: /days old/ });
  await ytdlpStatus({ YTDLP_PATH: bin });
  t.equal(fs.readFileSync(counter, 'utf8').trim().split('\n').length, 1, 'cached');
  t.match(await ytdlpStatus({ YTDLP_PATH: path.join(dir, 'missing') }), { version: null, warning: /not installed/ });
});
