/**
 * Storage hygiene on local disk: temp files of crashed processes go at start, generated
 * files expire after GENERATED_FILES_TTL while uploads and the media cache's files stay,
 * and /health reports each class.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { createFileStore, type ManagedFileStore } from '../../engine/platform/storage/create-file-store.js';
import { filesUnder } from '../../engine/platform/storage/disk-usage.js';
import { janitorSettings } from '../../engine/platform/storage/janitor.js';
import { createLocalFileStore } from '../../engine/platform/storage/local-files.js';
import { openTempArea, TEMP_IDLE_MS } from '../../engine/platform/storage/temp-area.js';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DAY_S = 24 * 3600;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Set a file's or directory's modification time `ago` ms into the past. */
const age = (target: string, ago: number) => fs.utimesSync(target, new Date(Date.now() - ago), new Date(Date.now() - ago));

t.test('GENERATED_FILES_TTL: seconds, 7 days by default, 0 keeps forever, nonsense refused', async (t) => {
  t.same(janitorSettings({}), { generatedTtlS: 7 * DAY_S, everyMs: 3600_000, generatedQuotaBytes: 10 * 1024 ** 3 });
  t.same(janitorSettings({ GENERATED_FILES_TTL: '60' }), { generatedTtlS: 60, everyMs: 6000, generatedQuotaBytes: 10 * 1024 ** 3 });
  t.equal(janitorSettings({ GENERATED_FILES_TTL: '0' }).generatedTtlS, 0);
  t.throws(() => janitorSettings({ GENERATED_FILES_TTL: '7d' }), /GENERATED_FILES_TTL must be a non-negative integer, got "7d"/);
});

t.test('the temp area: dead and loose leftovers go, live and recent ones stay', async (t) => {
  const dataDir = tempDataDir();
  const temp = openTempArea(dataDir);
  const root = path.dirname(temp.dir);
  const host = /^proc-\d+-[a-f0-9]+-(.+)$/.exec(path.basename(temp.dir))![1];
  const put = (rel: string, ago = 0) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'x'.repeat(10));
    if (ago) age(file, ago);
    return file;
  };
  const dead = put(`proc-999999999-aa-${host}/upload_123`); // no such pid
  const loose = put('a1b2c3d4e5f6'); // an older version's upload, cut off by a crash
  const sibling = put(`proc-${process.pid}-bb-${host}/upload_456`); // another store of this live process
  const foreignRecent = put('proc-42-cc-elsewhere/media-1/part');
  const foreignOld = put('proc-43-dd-elsewhere/upload', 2 * DAY_S * 1000);
  age(path.dirname(foreignOld), 2 * DAY_S * 1000);
  const ownIdle = put(path.join(path.basename(temp.dir), 'leaked'), TEMP_IDLE_MS + 60_000);
  const ownBusy = put(path.join(path.basename(temp.dir), 'media-x', 'being-written'));
  age(path.dirname(ownBusy), TEMP_IDLE_MS + 60_000); // an old job directory whose file is still being written

  t.same(await temp.measure(), { files: 7, bytes: 70 });
  t.equal(await temp.sweep(), 4);
  for (const gone of [dead, loose, foreignOld, ownIdle]) t.notOk(fs.existsSync(gone), `removed: ${path.relative(root, gone)}`);
  t.notOk(fs.existsSync(path.dirname(dead)), 'the dead process directory whole');
  for (const kept of [sibling, foreignRecent, ownBusy]) t.ok(fs.existsSync(kept), `kept: ${path.relative(root, kept)}`);
  await temp.remove();
  t.notOk(fs.existsSync(temp.dir), 'close removes its own directory');
});

/** Start `npm start` on dataDir and resolve with its URL once it listens. */
function startServer(dataDir: string) {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, TEST_API_KEY: TEST_KEY, LOG_REQUESTS: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const line = out
        .split('\n')
        .slice(0, -1)
        .find((l) => l.includes('"listening"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('close', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, listening };
}

t.test('an upload cut off by a crash leaves a temp file; the next start removes it', async (t) => {
  const dataDir = tempDataDir();
  const server = startServer(dataDir);
  t.teardown(() => void server.child.kill('SIGKILL'));
  const url = new URL(`${await server.listening}/api/tools/upload`);
  const boundary = 'crashtestboundary';
  const req = http.request({
    hostname: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-api-key': TEST_KEY },
  });
  req.on('error', () => {}); // the server dies mid-body
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  req.write(Buffer.alloc(4 * 1024 * 1024, 7));
  const tmp = path.join(dataDir, 'tmp');
  let partial = 0;
  for (let i = 0; i < 100 && partial < 1024 * 1024; i++) {
    await sleep(50);
    partial = (await filesUnder(tmp)).reduce((sum, f) => sum + f.size, 0);
  }
  t.ok(partial >= 1024 * 1024, `the upload is being written to DATA_DIR/tmp (${partial} bytes)`);
  const exited = new Promise((resolve) => server.child.once('close', resolve));
  server.child.kill('SIGKILL');
  await exited;
  req.destroy();
  t.ok((await filesUnder(tmp)).length > 0, 'the crash left it behind');

  const files = createFileStore(loadConfig({ DATA_DIR: dataDir }));
  t.teardown(() => files.close());
  await files.janitor.sweep(); // joins the pass that starting the store began
  t.same(await filesUnder(tmp), [], 'gone after the next start');
});

t.test('generated files expire; pinned and media-cache files stay; marks are dated by the last put', async (t) => {
  const dataDir = tempDataDir();
  const files = createLocalFileStore(dataDir, 'http://x');
  t.teardown(() => files.close());
  const adoptBytes = async (data: string) => {
    const temp = path.join(files.tempDir, `t-${Math.random()}`);
    fs.writeFileSync(temp, data);
    const hash = crypto.createHash('sha256').update(data).digest('hex');
    return files.adopt(temp, { ext: 'bin', sha256: hash, size: data.length });
  };
  const effect = await files.put(Buffer.from('an effect'), { ext: 'png' });
  const qr = await files.put(Buffer.from('a QR code'), { ext: 'png' });
  const alsoUploaded = await files.put(Buffer.from('uploaded later too'), { ext: 'png' });
  await files.pin(alsoUploaded.name); // the same bytes came in as an upload, which pins them
  const upload = await adoptBytes('an upload');
  await files.pin(upload.name);
  const media = await adoptBytes('a media file');

  t.same(
    await files.measure(),
    {
      uploads: { files: 2, bytes: 27 },
      generated: { files: 2, bytes: 18 },
      media_cache: { files: 1, bytes: 12 },
    },
    'a pinned file counts as an upload even when it was also generated',
  );
  // the QR code is produced again 8 days after the effect: only the effect is 7 days old
  const mark = (name: string) => path.join(dataDir, 'generated-files', name);
  for (const name of [effect.name, qr.name, alsoUploaded.name]) age(mark(name), 8 * DAY_S * 1000);
  await files.put(Buffer.from('a QR code'), { ext: 'png' });
  t.equal(await files.expireGenerated(Date.now() - 7 * DAY_S * 1000), 1);
  t.equal(await files.open(effect.name), undefined, 'the effect is gone');
  t.notOk(fs.existsSync(mark(effect.name)), 'with its mark');
  t.ok(await files.open(qr.name), 'the QR code, produced again, stays');
  t.ok(await files.open(alsoUploaded.name), 'bytes that were also uploaded stay');
  t.notOk(fs.existsSync(mark(alsoUploaded.name)), 'and lose their mark');
  t.ok(await files.open(upload.name), 'uploads stay');
  t.ok(await files.open(media.name), 'media-cache files are left to the media cache');
  t.same(await filesUnder(files.tempDir), [], 'nothing left aside in temp');

  fs.rmSync(path.join(dataDir, 'files', qr.name.slice(0, 2), qr.name));
  age(mark(qr.name), 8 * DAY_S * 1000);
  t.equal(await files.expireGenerated(Date.now()), 0, 'a mark whose file is gone');
  t.notOk(fs.existsSync(mark(qr.name)), 'is dropped');
});

t.test('in the engine: the janitor runs on its timer and /health reports every class', async (t) => {
  const { endpoints, upstream } = testEndpoints();
  const served = await serve({ GENERATED_FILES_TTL: '1' }, { endpoints, upstreamSpecs: upstream('http://127.0.0.1:9') });
  t.teardown(served.close);
  const files = served.engine.files as ManagedFileStore;
  const stored = await files.put(Buffer.from('generated in the engine'), { ext: 'txt' });
  t.equal((await fetch(stored.url)).status, 200);
  await files.janitor.sweep();
  const health = (await (await fetch(`${served.url}/health`)).json()) as Record<string, any>;
  t.match(health.storage, {
    uploads: { files: 0, bytes: 0 },
    generated: { files: 1, bytes: 23 },
    media_cache: { files: 0, bytes: 0 },
    temp: { files: 0, bytes: 0 },
    generated_ttl_s: 1,
  });
  t.ok(Date.parse(health.storage.measured_at) > Date.now() - 60_000, 'with the time of the measurement');
  // TTL 1 s: a pass every second; no sweep() called from here on
  let status = 200;
  for (let i = 0; i < 40 && status === 200; i++) {
    await sleep(100);
    status = (await fetch(stored.url)).status;
  }
  t.equal(status, 404, 'the timer removed the expired file');
});
