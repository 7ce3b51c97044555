import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ROOT } from '../../engine/core/root.js';
import { expectedSha256, releaseFileUrl } from '../../scripts/ytdlp-update.js';

/**
 * `npm run ytdlp:update` against a local server laid out like GitHub's releases
 * (`download/TAG/FILE`, `latest/download/FILE` redirecting to the newest tag): a release
 * whose file matches its SHA2-256SUMS replaces the installed yt-dlp; a checksum mismatch,
 * a file that claims another version, a missing release or a bad argument refuse and
 * leave the installed one as it was.
 */
const fakeYtdlp = (version: string) => `#!/bin/sh\nif [ "$1" = "--version" ]; then echo ${version}; exit 0; fi\nexit 3\n`;
const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

const releases = new Map<string, Record<string, string>>();
const release = (tag: string, asset: string, sumsFor: string = asset) => {
  releases.set(tag, { 'yt-dlp': asset, 'SHA2-256SUMS': `${sha256('other')}  yt-dlp.exe\n${sha256(sumsFor)}  yt-dlp\n` });
};
release('2026.08.19', fakeYtdlp('2026.08.19'));
release('2026.09.01', fakeYtdlp('2026.09.01'), 'a different file than the one served');
release('2026.09.02', fakeYtdlp('2026.07.04'));
const LATEST = '2026.08.19';

const requests: string[] = [];
const server = http.createServer((req, res) => {
  requests.push(req.url ?? '');
  const latest = /^\/releases\/latest\/download\/([^/]+)$/.exec(req.url ?? '');
  if (latest) return void res.writeHead(302, { location: `/releases/download/${LATEST}/${latest[1]}` }).end();
  const m = /^\/releases\/download\/([^/]+)\/([^/]+)$/.exec(req.url ?? '');
  const body = m && releases.get(m[1])?.[m[2]];
  if (!body) return void res.writeHead(404).end('Not Found');
  res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const from = `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-ytdlp-update-'));
const dest = path.join(dir, 'yt-dlp');
t.teardown(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The command as a host runs it (npm run ytdlp:update -- …), with its exit code and output. */
function update(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts/ytdlp-update.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, YTDLP_PATH: '' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const installed = () => fs.readFileSync(dest, 'utf8');
const leftovers = () => fs.readdirSync(dir).filter((name) => name !== 'yt-dlp');

t.test('release URLs and sums files as GitHub lays them out', async (t) => {
  t.equal(releaseFileUrl('https://github.com/yt-dlp/yt-dlp/releases/', 'latest', 'yt-dlp'), 'https://github.com/yt-dlp/yt-dlp/releases/latest/download/yt-dlp');
  t.equal(
    releaseFileUrl('https://github.com/yt-dlp/yt-dlp/releases', '2026.08.19', 'SHA2-256SUMS'),
    'https://github.com/yt-dlp/yt-dlp/releases/download/2026.08.19/SHA2-256SUMS',
  );
  const sums = `${'a'.repeat(64)}  yt-dlp_linux\n${'B'.repeat(64)} *yt-dlp\n`;
  t.equal(expectedSha256(sums, 'yt-dlp'), 'b'.repeat(64), 'binary-mode marker, upper-case hex');
  t.equal(expectedSha256(sums, 'yt-dlp_linux'), 'a'.repeat(64));
  t.equal(expectedSha256(sums, 'yt-dlp.exe'), undefined);
});

t.test('a given release whose file matches its SHA2-256SUMS replaces the installed yt-dlp', async (t) => {
  fs.writeFileSync(dest, fakeYtdlp('2023.03.04'), { mode: 0o755 });
  const run = await update('2026.08.19', '--dest', dest, '--from', from);
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /yt-dlp 2026\.08\.19 installed at .*yt-dlp \(sha256 [0-9a-f]{64}/);
  t.equal(installed(), fakeYtdlp('2026.08.19'));
  t.equal(fs.statSync(dest).mode & 0o777, 0o755, 'executable');
  t.same(leftovers(), [], 'no temporary file left beside it');
});

t.test('latest follows the redirect to the newest release', async (t) => {
  fs.writeFileSync(dest, fakeYtdlp('2023.03.04'), { mode: 0o755 });
  requests.length = 0;
  const run = await update('--dest', dest, '--from', from);
  t.equal(run.code, 0, run.stderr);
  t.equal(installed(), fakeYtdlp(LATEST));
  t.ok(requests.includes('/releases/latest/download/SHA2-256SUMS'), 'asked for the latest sums');
});

t.test('a checksum mismatch refuses and leaves the installed yt-dlp alone', async (t) => {
  fs.writeFileSync(dest, fakeYtdlp('2026.08.19'), { mode: 0o755 });
  const run = await update('2026.09.01', '--dest', dest, '--from', from);
  t.equal(run.code, 1);
  t.match(run.stderr, /refused, .*yt-dlp left as it was: checksum mismatch for yt-dlp/);
  t.equal(installed(), fakeYtdlp('2026.08.19'), 'unchanged');
  t.same(leftovers(), [], 'the download was removed');
});

t.test('a file that answers another version than the release it came from is refused', async (t) => {
  const run = await update('2026.09.02', '--dest', dest, '--from', from);
  t.equal(run.code, 1);
  t.match(run.stderr, /asked for 2026\.09\.02, the download says it is 2026\.07\.04/);
  t.equal(installed(), fakeYtdlp('2026.08.19'));
});

t.test('a release that does not exist, or bad arguments, change nothing', async (t) => {
  const missing = await update('2026.01.01', '--dest', dest, '--from', from);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /answered 404 \(no such release or file\)/);
  const badVersion = await update('../../etc', '--dest', dest, '--from', from);
  t.equal(badVersion.code, 1);
  t.match(badVersion.stderr, /version must be a release tag/);
  const noDest = await update('2026.08.19', '--from', from);
  t.equal(noDest.code, 2);
  t.match(noDest.stderr, /--dest FILE or YTDLP_PATH/);
  t.equal(installed(), fakeYtdlp('2026.08.19'));
});
