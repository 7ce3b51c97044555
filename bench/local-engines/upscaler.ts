/**
 * The neural upscaler's engines side by side, in one run, on the same 256×256 photo ×4:
 * the TensorFlow.js engine the upscaler ran on until #21 (wasm backend, one thread) and the
 * onnxruntime engine it runs on now (the same ESRGAN weights converted at build time), each
 * in its own worker thread, in interleaved rounds. Both sides include what the endpoint does
 * around the network: the photo decoded by sharp and the result encoded as JPEG (and, for
 * remini's ESRGAN-medium, the light sharpening); the onnxruntime side is the engine's own
 * upscale() / enhance(), the TensorFlow.js side its worker with the same steps around it.
 *
 *   npm run build && node --import tsx bench/local-engines/upscaler.ts
 *   ROUNDS=7 SIDE=256 node --import tsx bench/local-engines/upscaler.ts -- --base <commit>
 *
 * TensorFlow.js is no longer installed with the project: the reference engine is the
 * worker file as `--base` had it (default: the last commit that had it), run with the
 * packages it was released with, installed once into a folder under the temp directory
 * (`npm install` from the registry, ~320 MB; kept for the next run).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import sharp from 'sharp';
import { loadConfig } from '../../engine/platform/config.js';
import { closeUpscalePool, enhance, neuralThreads, upscale } from '../../engine/features/effects/upscale.js';
import { EngineScope } from '../../engine/platform/scope.js';
import type { EngineServices } from '../../engine/contract/call.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SIDE = Number(process.env.SIDE ?? 256);
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const REFERENCE_FILE = 'engine/features/effects/esrgan-worker.ts';
/** What the TensorFlow.js engine ran with (package-lock.json before #21). */
const REFERENCE_PACKAGES = {
  '@tensorflow/tfjs': '4.11.0',
  '@tensorflow/tfjs-backend-wasm': '4.11.0',
  '@upscalerjs/esrgan-slim': '1.0.0',
  '@upscalerjs/esrgan-medium': '1.0.0',
};

const git = (...a: string[]) => execFileSync('git', ['-C', ROOT, ...a], { encoding: 'utf8' }).trim();

/** The TensorFlow.js worker as `base` had it, beside its packages; its path. */
function referenceWorker(): { file: string; commit: string } {
  const inTree = fs.existsSync(path.join(ROOT, REFERENCE_FILE));
  // the last commit that had the file: HEAD while it exists, else the parent of the one that removed it
  const commit = option('base') ?? (inTree ? 'HEAD' : `${git('rev-list', '-1', 'HEAD', '--', REFERENCE_FILE)}^`);
  const short = git('rev-parse', '--short=12', `${commit}^{commit}`);
  const dir = path.join(os.tmpdir(), 'manifold-tfjs-reference');
  const manifest = JSON.stringify({ name: 'tfjs-reference', private: true, type: 'module', dependencies: REFERENCE_PACKAGES }, null, 2);
  if (!fs.existsSync(path.join(dir, 'node_modules')) || fs.readFileSync(path.join(dir, 'package.json'), 'utf8') !== manifest) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), manifest);
    console.error(`bench: installing the reference engine's packages into ${dir}`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const file = path.join(dir, `esrgan-worker-${short}.ts`);
  fs.writeFileSync(file, git('show', `${short}:${REFERENCE_FILE}`));
  return { file, commit: short };
}

/** One photo, the same for both engines: a real picture (the remini fixture) enlarged to SIDE×SIDE, as a JPEG. */
async function photo(): Promise<Buffer> {
  return sharp(path.join(ROOT, 'endpoints/tools/fixtures/remini-astronaut-64x48.jpg'))
    .resize(SIDE, SIDE, { fit: 'cover', kernel: 'lanczos3' })
    .jpeg({ quality: 92 })
    .toBuffer();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const reference = referenceWorker();
const input = await photo();
const tfjs = new Piscina({ filename: reference.file, maxThreads: 1 });
type Network = 'slim' | 'medium';
/** The TensorFlow.js worker with the endpoint's steps around it: decode, network, (sharpen), encode. */
const viaTfjs = async (model: Network) => {
  const { data } = await sharp(input).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const r = (await tfjs.run({ model, scale: 4, rgb: new Uint8Array(data), width: SIDE, height: SIDE })) as { rgb: Uint8Array; width: number; height: number };
  const out = sharp(Buffer.from(r.rgb), { raw: { width: r.width, height: r.height, channels: 3 } });
  // the sharpening remini applies after ESRGAN-medium (upscale.ts, enhance)
  return (model === 'medium' ? out.sharpen({ sigma: 0.8, m1: 0.6, m2: 1.5 }) : out).jpeg({ quality: 92 }).toBuffer();
};
const viaOnnx = (services: EngineServices) => async (model: Network) =>
  (model === 'slim' ? await upscale(input, 'esrgan-slim-4x', 'jpg', services) : await enhance(input, 'jpg', SIDE * SIDE, services)).data;

const threads = neuralThreads();
const configs = [1, ...(threads > 1 ? [threads] : [])].map((n) => ({ config: loadConfig({ UPSCALE_THREADS: String(n) }), scope: new EngineScope() }));
const engines = [
  { name: `TF.js wasm, 1 thread (${reference.commit})`, run: viaTfjs, times: new Map<Network, number[]>() },
  ...configs.map((config) => ({
    name: `onnxruntime, ${config.config.effects.upscaleThreads} thread${config.config.effects.upscaleThreads === 1 ? '' : 's'}`,
    run: viaOnnx(config),
    times: new Map<Network, number[]>(),
  })),
];
const networks: Network[] = ['slim', 'medium'];

const outputs = new Map<string, Buffer>();
const once = async (engine: (typeof engines)[number], model: Network) => {
  const start = performance.now();
  const out = await engine.run(model);
  const ms = performance.now() - start;
  outputs.set(`${engine.name}\0${model}`, out);
  return ms;
};

// a first call per engine and network loads the model: not timed
for (const engine of engines) for (const model of networks) await once(engine, model);
for (let round = 0; round < ROUNDS; round++) {
  // each round in another order, so no engine always runs on a warmer (or busier) machine
  const order = round % 2 ? [...engines].reverse() : engines;
  for (const model of networks)
    for (const engine of order) {
      const ms = await once(engine, model);
      engine.times.set(model, [...(engine.times.get(model) ?? []), ms]);
    }
}

const pixels = async (jpeg: Buffer) => sharp(jpeg).raw().toBuffer();
console.log(
  `ESRGAN ×4 on a ${SIDE}×${SIDE} photo, median of ${ROUNDS} interleaved rounds (load ${os.loadavg()[0].toFixed(1)}, ${os.availableParallelism()} cores)\n`,
);
console.log('| network | engine | median (ms) | spread (ms) | vs TF.js | mean abs difference to TF.js (of 255, after JPEG) |\n|---|---|---:|---:|---:|---:|');
for (const model of networks) {
  const base = median(engines[0].times.get(model)!);
  const baseOut = await pixels(outputs.get(`${engines[0].name}\0${model}`)!);
  for (const engine of engines) {
    const times = engine.times.get(model)!;
    const out = await pixels(outputs.get(`${engine.name}\0${model}`)!);
    let diff = 0;
    for (let i = 0; i < out.length; i++) diff += Math.abs(out[i] - baseOut[i]);
    const m = median(times);
    console.log(
      `| esrgan-${model} ×4 | ${engine.name} | ${Math.round(m)} | ${Math.round(Math.min(...times))}–${Math.round(Math.max(...times))} | ${(base / m).toFixed(2)}× | ${(diff / out.length).toFixed(4)} |`,
    );
  }
}
await tfjs.destroy();
await Promise.all(configs.map((services) => closeUpscalePool(services)));
