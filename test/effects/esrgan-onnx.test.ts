/**
 * The ONNX networks the upscaler runs, built by scripts/models/build.ts from the
 * @upscalerjs weights, against what the TensorFlow.js engine made of the same weights
 * (fixtures/esrgan/*-tfjs.png: the 64×48 input through engine/features/effects/esrgan-worker.ts
 * on TensorFlow.js 4.11 wasm, the engine before #21), and the tiling's seams.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import sharp from 'sharp';
import * as ort from 'onnxruntime-node';
import { buildModels, readLayersModel } from '../../scripts/models/build.js';
import { kerasToOnnx } from '../../scripts/models/keras-to-onnx.js';
import { ESRGAN_NETWORKS, MODELS_INDEX, type BuiltNetwork, type EsrganNetwork } from '../../engine/features/effects/esrgan-models.js';
import { placeTile, planTiles, tileInput } from '../../engine/features/effects/esrgan-tiles.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'esrgan');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'esrgan-models-'));
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));

const built = buildModels(dir);
const index = JSON.parse(fs.readFileSync(path.join(dir, MODELS_INDEX), 'utf8')) as Record<EsrganNetwork, BuiltNetwork>;
const input = await sharp(path.join(FIXTURES, 'esrgan-input-64x48.png')).raw().toBuffer({ resolveWithObject: true });
const { width, height } = input.info;
const sessions = new Map<EsrganNetwork, Promise<ort.InferenceSession>>();
const session = (network: EsrganNetwork) => {
  if (!sessions.has(network)) sessions.set(network, ort.InferenceSession.create(path.join(dir, index[network].file), { intraOpNumThreads: 1 }));
  return sessions.get(network)!;
};

/** The network run over the fixture in tiles of `side` with `margin` pixels of context, as the worker does. */
async function upscaleTiled(network: EsrganNetwork, side: number, margin: number): Promise<Uint8Array> {
  const { scale } = index[network];
  const out = new Uint8Array(width * scale * height * scale * 3);
  for (const tile of planTiles(width, height, margin, side)) {
    const run = await (
      await session(network)
    ).run({ input: new ort.Tensor('float32', tileInput(input.data, width, tile), [1, tile.readHeight, tile.readWidth, 3]) });
    placeTile(out, width * scale, run.output.data as Float32Array, tile, scale);
  }
  return out;
}

function difference(a: Uint8Array, b: Uint8Array) {
  let sum = 0,
    max = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    sum += d;
    if (d > max) max = d;
  }
  return { mean: sum / a.length, max };
}

t.test('the build converts every network, and the same package files give the same bytes', async (t) => {
  t.same(built, { written: Object.keys(ESRGAN_NETWORKS).length, total: Object.keys(ESRGAN_NETWORKS).length });
  t.same(buildModels(dir), { written: 0, total: built.total }, 'a second build rewrites nothing');
  for (const [network, { scale }] of Object.entries(ESRGAN_NETWORKS)) t.match(index[network as EsrganNetwork], { scale, receptiveRadius: Number });
});

for (const network of Object.keys(ESRGAN_NETWORKS) as EsrganNetwork[])
  t.test(`${network} on onnxruntime gives what TensorFlow.js gave (mean absolute difference ≤ 1/255)`, async (t) => {
    const { scale } = index[network];
    const reference = await sharp(path.join(FIXTURES, `${network}-tfjs.png`))
      .raw()
      .toBuffer({ resolveWithObject: true });
    t.same([reference.info.width, reference.info.height], [width * scale, height * scale]);
    // one tile: the whole 64×48 image
    const { mean, max } = difference(await upscaleTiled(network, 1024, 0), reference.data);
    t.ok(mean <= 1, `mean difference ${mean.toFixed(4)} of 255`);
    t.ok(max <= 2, `largest difference ${max} of 255`);
  });

t.test('tiles with the recorded receptive radius leave no seam; a smaller margin would', async (t) => {
  for (const network of ['esrgan-slim-x4', 'esrgan-medium-x4'] as const) {
    const whole = await upscaleTiled(network, 1024, 0);
    // 20-px tiles on 64×48: 12 tiles, every inner edge a possible seam
    t.equal(difference(await upscaleTiled(network, 20, index[network].receptiveRadius), whole).max, 0, `${network}: tiled = whole`);
    t.ok(difference(await upscaleTiled(network, 20, 3), whole).max > 1, `${network}: 3 px of context is not enough`);
  }
});

t.test('the tile plan: one read size, every pixel covered, context where the image has it', async (t) => {
  for (const [w, h, side, margin] of [
    [300, 200, 128, 18],
    [64, 48, 20, 10],
    [100, 30, 128, 10],
    [129, 257, 128, 10],
  ]) {
    const tiles = planTiles(w, h, margin, side);
    t.equal(new Set(tiles.map((x) => `${x.readWidth}×${x.readHeight}`)).size, 1, `${w}×${h}: one input shape`);
    const covered = new Uint8Array(w * h);
    for (const tile of tiles) {
      t.ok(tile.readX >= 0 && tile.readY >= 0 && tile.readX + tile.readWidth <= w && tile.readY + tile.readHeight <= h, 'reads inside the image');
      t.ok(
        tile.x - tile.readX >= Math.min(margin, tile.x) && tile.readX + tile.readWidth - (tile.x + tile.width) >= Math.min(margin, w - tile.x - tile.width),
        'context left and right',
      );
      t.ok(
        tile.y - tile.readY >= Math.min(margin, tile.y) && tile.readY + tile.readHeight - (tile.y + tile.height) >= Math.min(margin, h - tile.y - tile.height),
        'context above and below',
      );
      for (let y = tile.y; y < tile.y + tile.height; y++) covered.fill(1, y * w + tile.x, y * w + tile.x + tile.width);
    }
    t.notOk(covered.includes(0), `${w}×${h}: every pixel in a tile`);
  }
});

t.test('a layer the conversion does not know stops it, by name', async (t) => {
  const { json, weights, source } = readLayersModel(ESRGAN_NETWORKS['esrgan-slim-x2'].package, 2);
  const layers = json.modelTopology.model_config.config.layers;
  const changed = structuredClone(json);
  changed.modelTopology.model_config.config.layers = layers.map((l) => (l.class_name === 'Activation' ? { ...l, class_name: 'LeakyReLU' } : l));
  t.throws(() => kerasToOnnx(changed, weights, source), /F_1_1_Relu \(LeakyReLU\) is not supported/);
  t.throws(() => kerasToOnnx(json, weights.subarray(0, weights.length - 4), source), /weight files end before UPN3\/bias/);
});
