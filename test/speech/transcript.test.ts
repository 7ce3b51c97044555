/**
 * Transcription: what an OpenAI-compatible server receives is a real multipart request
 * (the file as MP3, the model, the language hint, the key), and offline the words spoken
 * by /api/tools/tts come back from pocketsphinx.
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { loadUpstreamSpecs } from '../../engine/catalog/upstreams.js';
import { serve, TEST_KEY } from '../support/serve.js';

const endpoints = [
  ...loadEndpoints(path.join(ENDPOINTS_DIR, 'ai')).filter((e) => e.path === '/api/ai/transcript'),
  ...loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => e.path === '/api/tools/tts'),
];
const upstreamSpecs = loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams'));

const seen: { headers: http.IncomingHttpHeaders; form: FormData; path: string }[] = [];
const whisper = http.createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = await new Request('http://x/', {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type']! },
    body: Buffer.concat(chunks),
  }).formData();
  seen.push({ headers: req.headers, form, path: req.url! });
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: ' Hola, ¿qué tal? ' }));
});
await new Promise<void>((resolve) => whisper.listen(0, '127.0.0.1', resolve));
const whisperUrl = `http://127.0.0.1:${(whisper.address() as AddressInfo).port}/v1`;
t.teardown(() => new Promise((resolve) => whisper.close(resolve)));

const offline = await serve({}, { endpoints, upstreamSpecs });
const online = await serve({ STT_BASE_URL: whisperUrl, STT_API_KEY: 'sk-test-stt', STT_MODEL: 'whisper-large-v3' }, { endpoints, upstreamSpecs });
t.teardown(() => Promise.all([offline.close(), online.close()]));

const get = async (base: string, route: string, params: Record<string, string>) =>
  (await fetch(`${base}${route}?${new URLSearchParams(params)}`, { headers: { 'x-api-key': TEST_KEY } })).json();

t.test('offline: what the TTS says, pocketsphinx hears', async (t) => {
  const spoken = await get(offline.url, '/api/tools/tts', { text: 'Please call me back after the meeting.', lang: 'en' });
  const heard = await get(offline.url, '/api/ai/transcript', { url: spoken.result.url });
  t.match(heard.result, { engine: 'pocketsphinx', language: 'en', note: /low accuracy/ });
  t.match(heard.result.text, /call me back after the meeting/);
});

t.test('a Whisper server gets a multipart upload in the OpenAI format', async (t) => {
  const spoken = await get(offline.url, '/api/tools/tts', { text: 'Hola, que tal', lang: 'es' });
  const heard = await get(online.url, '/api/ai/transcript', { url: spoken.result.url, lang: 'es' });
  t.same(heard.result, { text: 'Hola, ¿qué tal?', engine: 'openai-compatible', model: 'whisper-large-v3', duration: heard.result.duration });
  const [request] = seen;
  t.equal(request.path, '/v1/audio/transcriptions');
  t.equal(request.headers.authorization, 'Bearer sk-test-stt');
  t.equal(request.form.get('model'), 'whisper-large-v3');
  t.equal(request.form.get('language'), 'es');
  t.equal(request.form.get('response_format'), 'json');
  const file = request.form.get('file') as File;
  t.equal(file.name, 'audio.mp3');
  t.equal(file.type, 'audio/mpeg');
  const head = Buffer.from(await file.arrayBuffer()).subarray(0, 3);
  t.ok(head.toString('latin1') === 'ID3' || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0), 'an MP3 stream');
});
