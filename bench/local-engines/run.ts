/**
 * Time per call of the offline engines, cold (first call: worker or server start) and
 * warm (median of the next runs), through the real endpoints on a local server.
 *
 *   node --import tsx bench/local-engines/run.ts          # 5 warm runs each
 *   RUNS=10 node --import tsx bench/local-engines/run.ts
 *   RUNS=9 node --import tsx bench/local-engines/run.ts --reference [--base-dir DIR] [--only OCR]
 *
 * Inputs are the endpoints' own fixtures, served from a local file server.
 *
 * --reference: each engine's floor in the same run (issue 21: "0.88–1.14× the binaries",
 * "OCR 0.97–1.06× tesseract.js direct"). After the first call, the endpoint and the same
 * work done directly take turns (A B, B A, …), so load elsewhere on the machine falls on
 * both alike; the ratio is endpoint ÷ reference, each the median of its runs. The direct
 * work is what the handler asks the engine for, without the server: the same binaries with
 * the same arguments on the same fixture (Festival or espeak-ng, then ffmpeg to MP3;
 * ffmpeg to 16 kHz WAV, then pocketsphinx; a GET to an apertium-apy of the bench's own),
 * and for OCR tesseract.js in this process (createWorker('eng', 1) with the model it picks
 * for OEM 1, 4.0.0_best_int, from the installed data package: its default would download
 * the same file), plus, for the record, the combined 4.0.0 model and Debian's native
 * tesseract on one thread (`apt-get install tesseract-ocr`; skipped when absent).
 * `--base-dir DIR` (with --reference) adds the endpoints as another checkout serves them
 * (e.g. `git worktree add --detach DIR a1c55fa`, this tree's node_modules linked in), in this
 * process, to the same turns: a change's before and after against the same references.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve, TEST_KEY } from '../../test/support/serve.js';
import type { Reference } from './references.js';

const RUNS = Number(process.env.RUNS ?? 5);
const REFERENCE = process.argv.includes('--reference');
const BASE_DIR = process.argv.includes('--base-dir') ? process.argv[process.argv.indexOf('--base-dir') + 1] : undefined;
/** --only WORD: the engines whose name contains it (e.g. OCR, TTS). */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].toLowerCase() : undefined;
const paths = ['/api/tools/ocr', '/api/tools/tts', '/api/tools/translate', '/api/ai/transcript', '/api/tools/vocalremover', '/api/tools/noiseremover'];
const endpoints = [...loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')), ...loadEndpoints(path.join(ENDPOINTS_DIR, 'ai'))].filter((e) => paths.includes(e.path));

const files = http.createServer((req, res) => {
  // ?run=N only makes each call's URL its own (no answer cached by URL)
  const [dir, name] = new URL(req.url!, 'http://files').pathname.slice(1).split('/');
  const file = path.join(ENDPOINTS_DIR, dir, 'fixtures', path.basename(name));
  res.writeHead(200, { 'content-type': name.endsWith('.jpg') ? 'image/jpeg' : 'audio/mpeg' }).end(fs.readFileSync(file));
});
await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
const fixture = (dir: string, name: string) => (i: number) => ({
  url: `http://127.0.0.1:${(files.address() as AddressInfo).port}/${dir}/${name}?run=${i}`,
});

const served = await serve({}, { endpoints });
// translate caches its answers: each run asks a different sentence
type Params = Record<string, string> | ((i: number) => Record<string, string>);
const cases: [string, string, Params][] = [
  ['OCR (2-line JPEG note)', '/api/tools/ocr', fixture('tools', 'ocr-note.jpg')],
  ['TTS English, Festival slt (11 words)', '/api/tools/tts', { text: 'The weather today is sunny with a light breeze from the west.', lang: 'en' }],
  ['TTS Spanish, espeak-ng', '/api/tools/tts', { text: 'Buenos días, ¿cómo estás hoy?', lang: 'es' }],
  [
    'translate en→es, Apertium (one sentence)',
    '/api/tools/translate',
    (i) => ({ text: `I like green apples. The house has ${i + 2} doors.`, lang: 'es', from: 'en' }),
  ],
  ['transcript, pocketsphinx (5 s MP3)', '/api/ai/transcript', fixture('ai', 'transcript-speech.mp3')],
  ['vocal remover (4 s stereo MP3)', '/api/tools/vocalremover', fixture('tools', 'vocalremover-mix.mp3')],
  ['noise remover (6.5 s MP3)', '/api/tools/noiseremover', fixture('tools', 'noiseremover-noisy.mp3')],
];

const time = async (target: { url: string }, route: string, params: Record<string, string>) => {
  const start = performance.now();
  const answer = await fetch(`${target.url}${route}?${new URLSearchParams(params)}`, { headers: { 'x-api-key': TEST_KEY } });
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`${route}: HTTP ${answer.status}`);
  return performance.now() - start;
};

/**
 * CPU ms of this process (every thread) and of its children that have exited (the engines'
 * binaries, /proc/self/stat, 10 ms ticks); a server child that keeps running (apertium-apy)
 * is not counted until it exits, so translation's CPU figures are this process's only.
 */
const cpuMs = () => {
  const self = process.cpuUsage();
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (self.user + self.system) / 1000 + (Number(fields[13]) + Number(fields[14])) * 10;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const at = (params: Params, i: number) => (typeof params === 'function' ? params(i) : params);

if (!REFERENCE) {
  console.log(`| engine | first call (ms) | warm median of ${RUNS} (ms) |\n|---|---:|---:|`);
  for (const [name, route, params] of cases) {
    const cold = await time(served, route, at(params, 0));
    const warm: number[] = [];
    for (let i = 1; i <= RUNS; i++) warm.push(await time(served, route, at(params, i)));
    console.log(`| ${name} | ${Math.round(cold)} | ${Math.round(median(warm))} |`);
  }
} else {
  const { checkoutServer, cleanUp, nativeTesseract, speech, tesseractJs, transcription, translation } = await import('./references.js');
  const fixtureFile = (dir: string, name: string) => path.join(ENDPOINTS_DIR, dir, 'fixtures', name);
  const ocrImage = fs.readFileSync(fixtureFile('tools', 'ocr-note.jpg'));
  const apy = await translation('eng|spa', (i) => at(cases[3][2], i).text);
  const ocr = [await tesseractJs(ocrImage, '4.0.0_best_int'), await tesseractJs(ocrImage, '4.0.0')];
  const native = nativeTesseract(fixtureFile('tools', 'ocr-note.jpg'));
  const references: Record<string, Reference[]> = {
    [cases[0][0]]: [...ocr, ...(native ? [native] : [])],
    [cases[1][0]]: [speech('festival', 'cmu_us_slt_arctic_hts', at(cases[1][2], 0).text)],
    [cases[2][0]]: [speech('espeak-ng', 'es', at(cases[2][2], 0).text)],
    [cases[3][0]]: [apy],
    [cases[4][0]]: [transcription(fixtureFile('ai', 'transcript-speech.mp3'))],
  };
  console.log(
    `# ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; ${RUNS} warm runs each, in turns`,
  );
  // --base-dir: the same endpoints as another checkout serves them, in this process, in the same turns
  const base = BASE_DIR ? await checkoutServer(path.resolve(BASE_DIR), paths) : undefined;
  console.log(
    `| engine | timed | wall median (ms) | endpoint ÷ it |${base ? ` ${BASE_DIR}'s endpoint ÷ it |` : ''} CPU median (ms) | endpoint ÷ it |${base ? ` ${BASE_DIR}'s ÷ it |` : ''}\n` +
      `|---|---|---:|---:|${base ? '---:|' : ''}---:|---:|${base ? '---:|' : ''}`,
  );
  for (const [name, route, params] of cases) {
    const refs = references[name];
    if (!refs || (ONLY && !name.toLowerCase().includes(ONLY))) continue;
    const ways: Reference[] = [
      { name: 'the endpoint', run: (i) => time(served, route, at(params, i)) },
      ...(base ? [{ name: `the endpoint at ${BASE_DIR}`, run: (i: number) => time(base, route, at(params, i)) }] : []),
      ...refs,
    ];
    // first call: worker or server start, not the floor
    await time(served, route, at(params, 0));
    if (base) await time(base, route, at(params, 0));
    const ms: number[][] = ways.map(() => []);
    const cpu: number[][] = ways.map(() => []);
    for (let i = 1; i <= RUNS; i++) {
      // A B C, C B A, …: a burst of load elsewhere falls on every way alike
      const order = ways.map((_, k) => k);
      if (i % 2 === 0) order.reverse();
      for (const k of order) {
        const start = performance.now();
        const cpuStart = cpuMs();
        await ways[k].run(i);
        ms[k].push(performance.now() - start);
        cpu[k].push(cpuMs() - cpuStart);
      }
    }
    const medians = ms.map(median);
    const cpuMedians = cpu.map(median);
    const ratio = (of: number[], k: number, to: number) => `${(of[to] / of[k]).toFixed(2)}×`;
    ways.forEach((way, k) =>
      console.log(
        `| ${k === 0 ? name : ''} | ${way.name} | ${Math.round(medians[k])} | ${ratio(medians, k, 0)} |${base ? ` ${ratio(medians, k, 1)} |` : ''} ${Math.round(cpuMedians[k])} | ${ratio(cpuMedians, k, 0)} |${base ? ` ${ratio(cpuMedians, k, 1)} |` : ''}`,
      ),
    );
  }
  console.log(
    `# load average at the end ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  apy.close();
  await Promise.all(ocr.map((w) => w.close()));
  await base?.close();
  cleanUp();
}
await served.close();
files.close();
