import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Worker } from 'tesseract.js';
import type { Served } from '../../test/support/serve.js';
import { loadCheckout } from '../checkout.js';

/**
 * The work each offline endpoint asks of its engine, done directly without the server:
 * the same binaries with the handlers' arguments (engine/kinds/handlers/tools/tts.ts,
 * ai/transcript.ts, features/translate/apertium.ts), and tesseract.js in this process.
 * run.ts --reference times them in turns with the endpoints.
 */
export interface Reference {
  name: string;
  run(i: number): Promise<unknown>;
}

const require = createRequire(import.meta.url);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-engines-'));

function tool(bin: string, args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${bin} exited ${code}: ${err.slice(-300)}`))));
    child.stdin.end(options.stdin ?? '');
  });
}

const onPath = (bin: string) => (process.env.PATH ?? '').split(':').some((d) => fs.existsSync(path.join(d, bin)));
const MP3 = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];

/** Festival or espeak-ng into a WAV, then ffmpeg to a mono 192k MP3: tts.ts's two runs. */
export function speech(engine: 'festival' | 'espeak-ng', voice: string, text: string): Reference {
  const input = path.join(dir, `${engine}.txt`);
  const wav = path.join(dir, `${engine}.wav`);
  const mp3 = path.join(dir, `${engine}.mp3`);
  return {
    name: engine === 'festival' ? `text2wave (${voice}) + ffmpeg MP3` : `espeak-ng -v ${voice} + ffmpeg MP3`,
    async run() {
      await fs.promises.writeFile(input, text, 'utf8');
      if (engine === 'festival') await tool('text2wave', ['-o', wav, '-eval', `(voice_${voice})`, input]);
      else await tool('espeak-ng', ['-v', voice, '-b', '1', '-f', input, '-w', wav]);
      await tool('ffmpeg', [...MP3, '-i', wav, '-ac', '1', '-c:a', 'libmp3lame', '-b:a', '192k', '-f', 'mp3', mp3]);
    },
  };
}

/** ffmpeg to 16 kHz mono WAV, then pocketsphinx_continuous: transcript.ts's offline path. */
export function transcription(mp3: string): Reference {
  const wav = path.join(dir, 'speech.wav');
  return {
    name: 'ffmpeg 16 kHz WAV + pocketsphinx_continuous',
    async run() {
      const base = ['-map', '0:a:0', '-vn', '-sn', '-dn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav', wav];
      await tool('ffmpeg', [...MP3, '-i', mp3, ...base]);
      await tool('pocketsphinx_continuous', ['-infile', wav, '-logfn', '/dev/null']);
    },
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An apertium-apy of the bench's own (started before timing), asked as apertium.ts asks the engine's. */
export async function translation(pair: string, text: (i: number) => string): Promise<Reference & { close(): void }> {
  const port = await freePort();
  // detached: APY spawns a pipeline per pair, killed with its process group
  const apy = spawn('apertium-apy', ['-p', String(port), '/usr/share/apertium/modes'], { stdio: 'ignore', detached: true });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${base}/listPairs`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ask = async (i: number) => {
    const answer = await fetch(`${base}/translate`, { method: 'POST', body: new URLSearchParams({ langpair: pair, q: text(i), markUnknown: 'no' }) });
    if (!answer.ok) throw new Error(`apertium-apy: HTTP ${answer.status}`);
    return answer.json();
  };
  await ask(-1); // the pair's pipeline starts on its first use, as the endpoint's first call did
  return { name: `apertium-apy (own instance), POST /translate ${pair}`, run: ask, close: () => process.kill(-apy.pid!) };
}

/** tesseract.js in this process, warm, on the fixture's bytes as they are. */
export async function tesseractJs(image: Buffer, model: '4.0.0_best_int' | '4.0.0'): Promise<Reference & { close(): Promise<unknown> }> {
  const { createWorker } = await import('tesseract.js');
  const { langPath } = require('@tesseract.js-data/eng') as { langPath: string };
  const modelPath = path.join(path.dirname(langPath), model);
  const worker: Worker = await createWorker('eng', 1, { langPath: modelPath, gzip: true, cacheMethod: 'none' });
  await worker.recognize(image); // warm
  const name =
    model === '4.0.0_best_int'
      ? "tesseract.js direct, createWorker('eng', 1), its OEM 1 model 4.0.0_best_int"
      : 'tesseract.js direct, combined 4.0.0 model (before 38a167e)';
  return { name, run: () => worker.recognize(image), close: () => worker.terminate() };
}

/** Debian's tesseract, one thread (OMP_THREAD_LIMIT=1), LSTM engine; undefined when not installed. */
export function nativeTesseract(file: string): Reference | undefined {
  if (!onPath('tesseract')) return undefined;
  return {
    name: 'native tesseract (Debian), 1 thread, --oem 1',
    run: () => tool('tesseract', [file, 'stdout', '--oem', '1', '-l', 'eng'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' } }),
  };
}

export const cleanUp = () => fs.rmSync(dir, { recursive: true, force: true });

/** Another checkout's engine in this process (../checkout.ts), serving its endpoints of `paths` (tools and ai) like run.ts's. */
export async function checkoutServer(root: string, paths: string[]): Promise<Served> {
  const checkout = await loadCheckout(root);
  return checkout.serve(['tools', 'ai'].flatMap((dir) => checkout.endpoints(dir)).filter((e) => paths.includes(e.path)));
}
