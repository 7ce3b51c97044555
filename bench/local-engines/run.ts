/**
 * Time per call of the offline engines, cold (first call: worker or server start) and
 * warm (median of the next runs), through the real endpoints on a local server.
 *
 *   node --import tsx bench/local-engines/run.ts          # 5 warm runs each
 *   RUNS=10 node --import tsx bench/local-engines/run.ts
 *
 * Inputs are the endpoints' own fixtures, served from a local file server.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve, TEST_KEY } from '../../test/support/serve.js';

const RUNS = Number(process.env.RUNS ?? 5);
const paths = ['/api/tools/ocr', '/api/tools/tts', '/api/tools/translate', '/api/ai/transcript', '/api/tools/vocalremover', '/api/tools/noiseremover'];
const endpoints = [...loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')), ...loadEndpoints(path.join(ENDPOINTS_DIR, 'ai'))].filter((e) => paths.includes(e.path));

const files = http.createServer((req, res) => {
  const [dir, name] = req.url!.slice(1).split('/');
  const file = path.join(ENDPOINTS_DIR, dir, 'fixtures', path.basename(name));
  res.writeHead(200, { 'content-type': name.endsWith('.jpg') ? 'image/jpeg' : 'audio/mpeg' }).end(fs.readFileSync(file));
});
await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
const fixture = (dir: string, name: string) => `http://127.0.0.1:${(files.address() as AddressInfo).port}/${dir}/${name}`;

const served = await serve({}, { endpoints });
// translate caches its answers: each run asks a different sentence
const cases: [string, string, Record<string, string> | ((i: number) => Record<string, string>)][] = [
  ['OCR (2-line JPEG note)', '/api/tools/ocr', { url: fixture('tools', 'ocr-note.jpg') }],
  ['TTS English, Festival slt (11 words)', '/api/tools/tts', { text: 'The weather today is sunny with a light breeze from the west.', lang: 'en' }],
  ['TTS Spanish, espeak-ng', '/api/tools/tts', { text: 'Buenos días, ¿cómo estás hoy?', lang: 'es' }],
  [
    'translate en→es, Apertium (one sentence)',
    '/api/tools/translate',
    (i) => ({ text: `I like green apples. The house has ${i + 2} doors.`, lang: 'es', from: 'en' }),
  ],
  ['transcript, pocketsphinx (5 s MP3)', '/api/ai/transcript', { url: fixture('ai', 'transcript-speech.mp3') }],
  ['vocal remover (4 s stereo MP3)', '/api/tools/vocalremover', { url: fixture('tools', 'vocalremover-mix.mp3') }],
  ['noise remover (6.5 s MP3)', '/api/tools/noiseremover', { url: fixture('tools', 'noiseremover-noisy.mp3') }],
];

const time = async (route: string, params: Record<string, string>) => {
  const start = performance.now();
  const answer = await fetch(`${served.url}${route}?${new URLSearchParams(params)}`, { headers: { 'x-api-key': TEST_KEY } });
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`${route}: HTTP ${answer.status}`);
  return performance.now() - start;
};

console.log(`| engine | first call (ms) | warm median of ${RUNS} (ms) |\n|---|---:|---:|`);
for (const [name, route, params] of cases) {
  const at = (i: number) => (typeof params === 'function' ? params(i) : params);
  const cold = await time(route, at(0));
  const warm: number[] = [];
  for (let i = 1; i <= RUNS; i++) warm.push(await time(route, at(i)));
  warm.sort((a, b) => a - b);
  console.log(`| ${name} | ${Math.round(cold)} | ${Math.round(warm[Math.floor(warm.length / 2)])} |`);
}
await served.close();
files.close();
