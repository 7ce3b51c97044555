import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { describeVersion } from '../../engine/features/media/ytdlp-version.js';
import { serve, type Served } from '../support/serve.js';

/**
 * manifold_ytdlp_version_info and manifold_ytdlp_release_age_days on /metrics: what the
 * binary YTDLP_PATH names answers to --version, read again as soon as `npm run
 * ytdlp:update` renames a new release over it (not an hour later); nothing while it is missing.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-ytdlp-metrics-'));
const bin = path.join(work, 'yt-dlp');
const fake = (version: string) => `#!/bin/sh\necho ${version}\n`;
/** As the update script does: a new file renamed over the old one. */
function install(version: string) {
  const temp = path.join(work, `.yt-dlp.${version}`);
  fs.writeFileSync(temp, fake(version), { mode: 0o755 });
  fs.renameSync(temp, bin);
}
install('2026.08.19');

const engines: Served[] = [];
t.teardown(async () => {
  for (const served of engines) await served.close();
  fs.rmSync(work, { recursive: true, force: true });
});
const scrape = async (served: Served) => {
  const res = await fetch(`${served.url}/metrics`);
  t.equal(res.status, 200);
  return (await res.text()).split('\n').filter((line) => line.startsWith('manifold_ytdlp_'));
};

t.test('version and age of the yt-dlp YTDLP_PATH names, renewed when the file is replaced', async (t) => {
  const served = await serve({ YTDLP_PATH: bin });
  engines.push(served);
  const age = (version: string) => describeVersion(bin, version).age_days;
  t.same(await scrape(served), [
    `manifold_ytdlp_version_info{version="2026.08.19",path="${bin}"} 1`,
    `manifold_ytdlp_release_age_days{version="2026.08.19"} ${age('2026.08.19')}`,
  ]);
  install('2026.11.20');
  t.same(
    await scrape(served),
    [`manifold_ytdlp_version_info{version="2026.11.20",path="${bin}"} 1`, `manifold_ytdlp_release_age_days{version="2026.11.20"} ${age('2026.11.20')}`],
    'the next scrape shows the update',
  );
});

t.test('no series while yt-dlp is missing', async (t) => {
  const served = await serve({ YTDLP_PATH: path.join(work, 'missing') });
  engines.push(served);
  t.same(await scrape(served), []);
});
