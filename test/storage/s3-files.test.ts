/** Hosted files in S3-compatible storage, against a real local server (s3rver). */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { createFileStore } from '../../engine/platform/storage/create-file-store.js';
import { PART_SIZE } from '../../engine/platform/storage/s3-files.js';
import { tempDataDir } from '../support/serve.js';
import { BUCKET, startLocalS3, type LocalS3 } from './s3-server.js';

const s3 = await startLocalS3();
t.teardown(() => s3.close());

function store(env: Record<string, string> = {}) {
  const files = createFileStore(loadConfig({ DATA_DIR: tempDataDir(), PUBLIC_BASE_URL: 'http://m.test', ...s3.env, ...env }));
  t.teardown(() => files.close());
  return files;
}

/** Requests recorded while `work` ran. */
async function recorded(local: LocalS3, work: () => Promise<unknown>) {
  const from = local.requests.length;
  await work();
  return local.requests.slice(from);
}

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/** Bytes in a new temp file of the store's temp dir (random bytes when a size is given), with their hash. */
function tempFile(dir: string, content: number | Buffer) {
  const data = typeof content === 'number' ? crypto.randomBytes(content) : content;
  const file = path.join(dir, `upload-${crypto.randomUUID()}`);
  fs.writeFileSync(file, data);
  return { file, data, sha256: sha256(data) };
}

t.test('put stores once per content; open gives size, full reads and ranges', async (t) => {
  const files = store();
  const data = Buffer.from('hello from the bucket');
  let first!: Awaited<ReturnType<typeof files.put>>;
  const firstRequests = await recorded(s3, async () => (first = await files.put(data, { ext: 'txt' })));
  t.equal(first.name, `${sha256(data)}.txt`);
  t.equal(first.url, `http://m.test/files/${first.name}`, 'the engine URL, whatever the backend');
  t.ok(
    firstRequests.some((r) => r.method === 'PUT' && r.url.includes(`/files/${first.name}`)),
    'uploaded',
  );
  const again = await recorded(s3, () => files.put(data, { ext: 'txt' }));
  t.notOk(
    again.some((r) => r.method === 'PUT' && r.url.includes('/files/')),
    'same bytes: found, not uploaded again',
  );
  t.ok(
    again.some((r) => r.method === 'PUT' && r.url.includes(`/generated/${first.name}`)),
    'only its generated mark is dated anew',
  );

  const opened = (await files.open(first.name))!;
  t.equal(opened.size, data.length);
  t.equal(opened.publicUrl, undefined, 'proxied unless S3_PUBLIC_URL is set');
  t.equal(await text(await opened.read()), 'hello from the bucket');
  t.equal(await text(await opened.read({ start: 6, end: 9 })), 'from');
  t.equal(await files.open(`${'0'.repeat(64)}.txt`), undefined, 'absent name');
  t.equal(await files.open('../secrets.txt'), undefined, 'not a store name');
});

t.test('objects carry their type; active content is an attachment in the bucket too', async (t) => {
  const files = store();
  const svg = await files.put(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), { ext: 'svg' });
  // anonymous GET straight from the server, as a public bucket would answer
  const res = await fetch(`${s3.endpoint}/${BUCKET}/files/${svg.name}`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/svg+xml');
  t.match(res.headers.get('content-disposition'), /^attachment/);
  t.match(res.headers.get('cache-control'), /immutable/);
});

t.test('adopt streams a large temp file up in parts, then deletes it', async (t) => {
  const files = store();
  const big = tempFile(files.tempDir, 2 * PART_SIZE + 12345);
  let stored!: Awaited<ReturnType<typeof files.adopt>>;
  const sent = await recorded(s3, async () => (stored = await files.adopt(big.file, { ext: 'bin', sha256: big.sha256, size: big.data.length })));
  t.notOk(fs.existsSync(big.file), 'temp file deleted');
  const parts = sent.filter((r) => r.method === 'PUT' && /[?&]partNumber=/.test(r.url));
  t.equal(parts.length, 3, 'three parts');
  t.ok(
    sent.some((r) => r.method === 'POST' && /[?&]uploads/.test(r.url)),
    'a multipart upload was started',
  );
  t.ok(Math.max(...sent.map((r) => r.bodyBytes)) <= PART_SIZE, 'no request carried more than one part');
  const checksummed = sent.filter((r) => Object.keys(r.headers).some((h) => h.startsWith('x-amz-checksum') || h === 'x-amz-sdk-checksum-algorithm'));
  t.same(checksummed, [], 'no optional checksums, which services predating them reject or store as framing');
  const back = await buffer(await (await files.open(stored.name))!.read());
  t.equal(sha256(back), big.sha256, 'read back byte-identical');

  const twin = tempFile(files.tempDir, big.data);
  const repeat = await recorded(s3, () => files.adopt(twin.file, { ext: 'bin', sha256: big.sha256, size: big.data.length }));
  t.notOk(
    repeat.some((r) => r.method === 'PUT' || r.method === 'POST'),
    'already stored: nothing uploaded',
  );
  t.notOk(fs.existsSync(twin.file), 'the duplicate temp file is deleted too');
});

t.test('a failed upload leaves nothing under the key, and no temp file', async (t) => {
  const files = store();
  const big = tempFile(files.tempDir, PART_SIZE + 1000);
  s3.failWhen = (r) => r.method === 'PUT' && /[?&]partNumber=2/.test(r.url);
  t.teardown(() => (s3.failWhen = undefined));
  await t.rejects(files.adopt(big.file, { ext: 'bin', sha256: big.sha256, size: big.data.length }));
  s3.failWhen = undefined;
  t.equal(await files.open(`${big.sha256}.bin`), undefined, 'no object under the final key');
  t.notOk(fs.existsSync(big.file), 'temp file deleted');
  t.ok(
    s3.requests.some((r) => r.method === 'DELETE' && /[?&]uploadId=/.test(r.url)),
    'the multipart upload was aborted',
  );
});

t.test('pins protect files from removeUnpinned; reads of a removed file are not_found', async (t) => {
  const files = store();
  const kept = await files.put(Buffer.from('an upload'), { ext: 'txt' });
  const cached = await files.put(Buffer.from('a download, expiring'), { ext: 'txt' });
  await files.pin(kept.name);
  const opened = (await files.open(cached.name))!;
  t.equal(await files.removeUnpinned(kept.name), false, 'pinned: kept');
  t.ok(await files.open(kept.name));
  t.equal(await files.removeUnpinned(cached.name), true, 'unpinned: removed');
  t.equal(await files.open(cached.name), undefined);
  t.equal(await files.removeUnpinned(cached.name), false, 'already gone');
  t.equal(await files.removeUnpinned('../../etc/passwd'), false, 'not a store name');
  await t.rejects(opened.read(), { status: 404, code: 'not_found' });
});

t.test('S3_PREFIX places the keys; S3_PUBLIC_URL gives the public address of the object', async (t) => {
  const files = store({ S3_PREFIX: '/manifold/hosted/', S3_PUBLIC_URL: `${s3.endpoint}/${BUCKET}/` });
  const stored = await files.put(Buffer.from('behind a CDN'), { ext: 'png' });
  const opened = (await files.open(stored.name))!;
  t.equal(opened.publicUrl, `${s3.endpoint}/${BUCKET}/manifold/hosted/files/${stored.name}`);
  t.equal(await (await fetch(opened.publicUrl!)).text(), 'behind a CDN', 'the object is really there');
  t.equal(await store().open(stored.name), undefined, 'not visible without the prefix');
});

t.test('the janitor on S3: generated files expire, pinned and media-cache files stay, classes measured from the bucket', async (t) => {
  const files = store({ S3_PREFIX: 'janitor' });
  const adopted = async (content: string) => {
    const temp = tempFile(files.tempDir, Buffer.from(content));
    return files.adopt(temp.file, { ext: 'bin', sha256: temp.sha256, size: temp.data.length });
  };
  const effect = await files.put(Buffer.from('an effect'), { ext: 'png' });
  const qr = await files.put(Buffer.from('a QR code'), { ext: 'png' });
  const both = await files.put(Buffer.from('generated, then uploaded'), { ext: 'png' });
  await files.pin(both.name);
  const upload = await adopted('an upload');
  await files.pin(upload.name);
  const media = await adopted('a media file');
  t.same(await files.measure(), {
    uploads: { files: 2, bytes: 33 },
    generated: { files: 2, bytes: 18 },
    media_cache: { files: 1, bytes: 12 },
  });

  // S3 dates objects itself: wait, cut, and produce the QR code again after the cut
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const cut = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await files.put(Buffer.from('a QR code'), { ext: 'png' });
  const sent = await recorded(s3, async () => t.equal(await files.expireGenerated(cut), 1));
  const deleted = sent.filter((r) => r.method === 'DELETE').map((r) => r.url.split('?')[0].replace(`/${BUCKET}/janitor/`, ''));
  t.equal(await files.open(effect.name), undefined, 'the effect is gone');
  t.ok(deleted.includes(`generated/${effect.name}`), 'with its mark');
  t.ok(await files.open(qr.name), 'produced again after the cut: kept');
  t.ok(await files.open(both.name), 'also uploaded: kept');
  t.ok(deleted.includes(`generated/${both.name}`), 'losing its mark');
  t.same(
    deleted.filter((key) => key.startsWith('files/')),
    [`files/${effect.name}`],
    'no other file deleted',
  );
  t.ok(await files.open(upload.name));
  t.ok(await files.open(media.name));

  await files.janitor.sweep();
  t.match(
    files.janitor.report(),
    {
      uploads: { files: 2, bytes: 33 },
      generated: { files: 1, bytes: 9 },
      media_cache: { files: 1, bytes: 12 },
      temp: { files: 0, bytes: 0 },
    },
    'the janitor reports the bucket',
  );
});

t.test('the quota on S3: the oldest generated files are evicted first, uploads never', async (t) => {
  const files = store({ S3_PREFIX: 'quota' });
  // S3 dates objects to the second: a second apart, so the order is the bucket's own
  const produced = [];
  for (const content of ['first', 'second', 'third']) {
    if (produced.length) await new Promise((resolve) => setTimeout(resolve, 1100));
    produced.push(await files.put(Buffer.from(content.padEnd(100, '.')), { ext: 'png' }));
  }
  const upload = await files.put(Buffer.from('uploaded'.padEnd(100, '.')), { ext: 'bin' });
  await files.pin(upload.name);
  t.same(await files.evictGenerated(150), { files: 2, bytes: 200 }, 'two files freed the 150 bytes asked');
  t.equal(await files.open(produced[0].name), undefined, 'the oldest went');
  t.equal(await files.open(produced[1].name), undefined, 'and the next');
  t.ok(await files.open(produced[2].name), 'the newest stays');
  t.ok(await files.open(upload.name), 'the upload stays, though it is the newest put of all');
  t.same((await files.measure()).generated, { files: 1, bytes: 100 });
});
