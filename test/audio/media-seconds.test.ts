/**
 * The audio tools count the seconds of audio they process, as ffprobe reads them, in the
 * key's usage (media_seconds) like the downloaders: /api/tools/vocalremover on its own
 * fixture, served from a local address.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

const mix = path.join(ENDPOINTS_DIR, 'tools', 'fixtures', 'vocalremover-mix.mp3');
const seconds = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', mix], { encoding: 'utf8' }));

t.test('a vocal removal counts its source seconds', async (t) => {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(fs.readFileSync(mix)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => e.path === '/api/tools/vocalremover');
  const served = await serve({ ADMIN_TOKEN: TEST_ADMIN_TOKEN }, { endpoints });
  t.teardown(() => served.close());

  const source = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mix.mp3`;
  const res = await fetch(`${served.url}/api/tools/vocalremover?url=${encodeURIComponent(source)}`, { headers: { 'X-API-Key': TEST_KEY } });
  t.equal(res.status, 200, JSON.stringify(await res.clone().json()));
  const usage = await (
    await fetch(`${served.url}/api/admin/usage?endpoint=/api/tools/vocalremover`, { headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })
  ).json();
  t.ok(seconds > 0);
  t.ok(Math.abs(usage.result.totals.media_seconds - seconds) < 0.01, `${usage.result.totals.media_seconds} s counted, ffprobe reads ${seconds} s`);
});
