/**
 * The one decision of engine/contract/file-output.ts: a file a call produced is sent as
 * bytes or hosted, and its hosted answer is built from the FileOutput — the shapes clients
 * read today, field for field. The last tests keep it the one place: no other engine module
 * stores a call's file or builds the bytes answer for it.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { answerFile, FileOutput, hostFile, hosted, wantsBytes } from '../../engine/contract/file-output.js';
import type { AdapterSetup, Call } from '../../engine/contract/call.js';
import type { Endpoint } from '../../engine/core/manifest-types.js';
import type { FileStore, StoredFile } from '../../engine/platform/storage/files.js';
import { loadConfig } from '../../engine/platform/config.js';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { mp3File } from '../../engine/features/audio/ffmpeg.js';
import { servicePng } from '../../engine/features/effects/service-png.js';
import sharp from 'sharp';
import { imageAnswer, renderedFile } from '../../engine/features/effects/deliver.js';
import { storeOutput } from '../../engine/pipeline/jobs/job-output.js';

/** A file store that keeps what it was given and answers as the real one does (name = hash.ext). */
function memoryStore() {
  const stored: { data: Buffer; ext: string }[] = [];
  const put = async (data: Buffer, { ext }: { ext: string }): Promise<StoredFile> => {
    stored.push({ data, ext });
    const sha256 = `h${stored.length}`;
    return { id: sha256, name: `${sha256}.${ext}`, url: `http://files.test/files/${sha256}.${ext}`, size: data.length, sha256, contentType: 'x/ignored' };
  };
  return { files: { put } as unknown as FileStore, stored };
}

const setupFor = (response: Endpoint['response'], files: FileStore, endpointPath = '/api/tools/thing') =>
  ({ endpoint: { path: endpointPath, response } as Endpoint, files }) as unknown as AdapterSetup;
const callWith = (params: Record<string, unknown>) => ({ params }) as unknown as Call;

t.test('bytes for stream=true, and for a binary endpoint unless hosted=true', async (t) => {
  t.equal(wantsBytes({ response: 'streamable' }, { stream: true }), true);
  t.equal(wantsBytes({ response: 'streamable' }, { stream: false }), false);
  t.equal(wantsBytes({ response: 'streamable' }, {}), false);
  t.equal(wantsBytes({ response: 'json' }, {}), false);
  t.equal(wantsBytes({ response: 'binary' }, {}), true);
  t.equal(wantsBytes({ response: 'binary' }, { hosted: false }), true);
  t.equal(wantsBytes({ response: 'binary' }, { hosted: true }), false);
});

t.test('the bytes answer: named after the endpoint or the file, with the file headers', async (t) => {
  const { files, stored } = memoryStore();
  const png = Buffer.from('png bytes');
  const plain = await answerFile(new FileOutput(png, 'png', 'image/png'), callWith({}), setupFor('binary', files, '/api/tools/createqr'));
  t.same(plain, { type: 'binary', body: png, contentType: 'image/png', filename: 'createqr.png' });
  const named = new FileOutput(png, 'webp', 'image/webp', { name: 'sepia', headers: { 'Cache-Control': 'public, max-age=86400' } });
  t.same(await answerFile(named, callWith({ stream: true }), setupFor('streamable', files)), {
    type: 'binary',
    body: png,
    contentType: 'image/webp',
    filename: 'sepia.webp',
    headers: { 'Cache-Control': 'public, max-age=86400' },
  });
  t.equal(stored.length, 0, 'nothing is stored when the bytes are the answer');
});

t.test('the hosted answer: the default shape, the adapter fallback, and the file own template', async (t) => {
  const { files, stored } = memoryStore();
  const pdf = Buffer.from('%PDF-1.7 …');
  const file = new FileOutput(pdf, 'pdf', 'application/pdf');
  t.same(await answerFile(file, callWith({ hosted: true }), setupFor('binary', files)), {
    type: 'json',
    result: { url: 'http://files.test/files/h1.pdf', size: pdf.length, mime: 'application/pdf', sha256: 'h1' },
  });
  t.same(stored[0], { data: pdf, ext: 'pdf' }, 'the bytes are stored with the file extension');
  t.same(await answerFile(file, callWith({}), setupFor('json', files), hosted.url), { type: 'json', result: 'http://files.test/files/h2.pdf' });
  const own = file.withAnswer({ url: hosted.url, download_url: hosted.url, size: hosted.size, mime: 'application/pdf' });
  t.same(await answerFile(own, callWith({}), setupFor('streamable', files), hosted.url), {
    type: 'json',
    result: { url: 'http://files.test/files/h3.pdf', download_url: 'http://files.test/files/h3.pdf', size: pdf.length, mime: 'application/pdf' },
  });
});

t.test('placeholders are filled at any depth and in order; other values stay as they are', async (t) => {
  const { files } = memoryStore();
  const answer = { title: 'x', list: [hosted.url, { name: hosted.name }], n: 3, none: null, when: new Date(0), sha: hosted.sha256 };
  const result = (await hostFile(files, new FileOutput(Buffer.from('ab'), 'zip', 'application/zip', { answer }))) as Record<string, unknown>;
  t.same(result, { title: 'x', list: ['http://files.test/files/h1.zip', { name: 'h1.zip' }], n: 3, none: null, when: new Date(0), sha: 'h1' });
  t.same(Object.keys(result), ['title', 'list', 'n', 'none', 'when', 'sha'], 'the template field order is the answer order');
  t.same(await hostFile(files, new FileOutput(Buffer.from('ab'), 'zip', 'application/zip', { answer: [hosted.url] })), ['http://files.test/files/h2.zip']);
});

/** The file a call made, answered as the endpoint's client sees it (the setup's endpoint decides bytes or hosted). */
async function answerOf(file: FileOutput, setup: AdapterSetup, params: Record<string, unknown> = {}) {
  return answerFile(file, callWith(params), setup);
}

t.test('an audio tool MP3: {url, download_url, mime, size, duration, ...facts}, measured only when hosted', async (t) => {
  const { files } = memoryStore();
  const mp3 = path.join(ENDPOINTS_DIR, 'tools', 'fixtures', 'vocalremover-mix.mp3');
  const size = fs.statSync(mp3).size;
  const setup = { ...setupFor('streamable', files, '/api/tools/vocalremover'), config: loadConfig({}) } as AdapterSetup;
  const signal = new AbortController().signal;
  const made = await mp3File(setup, { params: {}, signal } as unknown as Call, mp3, { method: 'centre-channel cancellation' });
  const { result } = (await answerOf(made, setup)) as { result: Record<string, unknown> };
  t.same(Object.keys(result), ['url', 'download_url', 'mime', 'size', 'duration', 'method']);
  t.match(result, {
    url: 'http://files.test/files/h1.mp3',
    download_url: 'http://files.test/files/h1.mp3',
    mime: 'audio/mpeg',
    size,
    method: 'centre-channel cancellation',
  });
  t.ok(typeof result.duration === 'number' && result.duration > 0, 'the length is measured');
  // stream=true: no ffprobe run (a broken ffprobe path would fail it), the bytes named after the endpoint
  const noProbe = { ...setup, config: loadConfig({ FFPROBE_PATH: '/nonexistent/ffprobe' }) } as AdapterSetup;
  const streamed = await mp3File(noProbe, { params: { stream: true }, signal } as unknown as Call, mp3, {});
  t.match(await answerOf(streamed, noProbe, { stream: true }), { type: 'binary', contentType: 'audio/mpeg', filename: 'vocalremover.mp3' });
});

t.test('a rendered picture: {image_url, format, width, height, size}, bytes named after it and cached a day', async (t) => {
  const { files } = memoryStore();
  const data = Buffer.from('webp bytes');
  const picture = renderedFile({ data, contentType: 'image/webp', format: 'webp', width: 30, height: 20 }, 'sepia');
  const setup = setupFor('streamable', files, '/api/effects/sepia');
  const url = 'http://files.test/files/h1.webp';
  const { result } = (await answerOf(picture, setup)) as { result: Record<string, unknown> };
  t.same(Object.keys(result), ['image_url', 'format', 'width', 'height', 'size']);
  t.same(result, { image_url: url, format: 'webp', width: 30, height: 20, size: data.length });
  t.same(await answerOf(picture, setup, { stream: true }), {
    type: 'binary',
    body: data,
    contentType: 'image/webp',
    filename: 'sepia.webp',
    headers: { 'Cache-Control': 'public, max-age=86400' },
  });
  // remini adds the link as `url` last; ttp and imageupscaler answer the link alone
  const remini = renderedFile({ data, contentType: 'image/jpeg', format: 'jpg', width: 4, height: 3 }, 'enhanced');
  const withUrl = remini.withAnswer({ ...imageAnswer({ data, contentType: 'image/jpeg', format: 'jpg', width: 4, height: 3 }), url: hosted.url });
  const answered = (await answerOf(withUrl, setup)) as { result: Record<string, unknown> };
  t.same(Object.keys(answered.result), ['image_url', 'format', 'width', 'height', 'size', 'url']);
  t.equal(answered.result.url, answered.result.image_url);
  t.same(await answerOf(remini.withAnswer(hosted.url), setup), { type: 'json', result: 'http://files.test/files/h3.jpg' });
  // a binary endpoint (tools/goodbye, tools/canvas): the bytes unless hosted=true
  const banner = renderedFile({ data, contentType: 'image/png', format: 'png', width: 2, height: 1 }, 'goodbye');
  t.match(await answerOf(banner, setupFor('binary', files, '/api/tools/goodbye')), { type: 'binary', filename: 'goodbye.png' });
  t.match(await answerOf(banner, setupFor('binary', files, '/api/tools/goodbye'), { hosted: true }), {
    type: 'json',
    result: { image_url: String, format: 'png' },
  });
});

t.test('an image service PNG: {image_url, url, format, width, height, size, engine}', async (t) => {
  const { files } = memoryStore();
  const png = await sharp({ create: { width: 3, height: 2, channels: 4, background: '#00000000' } })
    .png()
    .toBuffer();
  const setup = setupFor('streamable', files, '/api/tools/removebg');
  const { result } = (await answerOf(await servicePng('rembg', png), setup)) as { result: Record<string, unknown> };
  t.same(Object.keys(result), ['image_url', 'url', 'format', 'width', 'height', 'size', 'engine']);
  const url = 'http://files.test/files/h1.png';
  t.same(result, { image_url: url, url, format: 'png', width: 3, height: 2, size: png.length, engine: 'rembg' });
  t.match(await answerOf(await servicePng('rembg', png), setup, { stream: true }), { type: 'binary', contentType: 'image/png', filename: 'removebg.png' });
  await t.rejects(servicePng('rembg', Buffer.from('<html>')), { code: 'upstream_error' }, 'a service answering anything but a PNG is its fault');
});

t.test("a job's bytes are hosted by the same function: {download_url, filename, content_type, size}", async (t) => {
  const { files, stored } = memoryStore();
  const zip = Buffer.from('PK…');
  const named = await storeOutput({ type: 'binary', body: zip, contentType: 'application/zip', filename: 'site.zip' }, files, 1024);
  t.same(named, { download_url: 'http://files.test/files/h1.zip', filename: 'site.zip', content_type: 'application/zip', size: zip.length });
  t.same(Object.keys(named as object), ['download_url', 'filename', 'content_type', 'size']);
  const unnamed = await storeOutput({ type: 'binary', body: zip, contentType: 'image/png' }, files, 1024);
  t.same(
    unnamed,
    { download_url: 'http://files.test/files/h2.png', filename: 'h2.png', content_type: 'image/png', size: zip.length },
    'no name: the store name',
  );
  t.equal(stored.length, 2);
  await t.rejects(storeOutput({ type: 'binary', body: zip, contentType: 'image/png' }, files, 2), { code: 'payload_too_large' });
});

const ENGINE = path.join(import.meta.dirname, '..', '..', 'engine');

function engineSources(dir = ENGINE): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return engineSources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Engine modules where `pattern` appears, as paths under engine/. */
const modulesWith = (pattern: RegExp) =>
  engineSources()
    .filter((file) => pattern.test(fs.readFileSync(file, 'utf8')))
    .map((file) => path.relative(ENGINE, file).split(path.sep).join('/'))
    .sort();

t.test('a call file is stored in one place', async (t) => {
  // docs/contributing/architecture.md (decisions) says why the others are not a call's answer
  t.same(modulesWith(/files\.put\(/), [
    'contract/file-output.ts', // the one decision
    'features/tempmail/smtp.ts', // a received mail's attachments, stored as they arrive: no call produced them
  ]);
});

t.test('bytes answers are built only where they are not a call file', async (t) => {
  t.same(modulesWith(/type: 'binary'/), [
    'contract/call.ts', // the Output type itself
    'contract/file-output.ts', // the one decision
    'features/media/service.ts', // media stream mode: ffmpeg's stdout as it is made, not a file in memory
    'kinds/adapters/ai.ts', // a chat streamed as server-sent events
    'pipeline/admin/system-routes.ts', // built-in routes: their own documents, not an endpoint file
    'pipeline/admin/usage-routes.ts',
    'pipeline/discovery/gallery.ts',
    'pipeline/routes/health.ts',
    'pipeline/routes/metrics.ts',
  ]);
});
