/**
 * An effect through its endpoint against the same draw + encode done directly, in one run
 * (issue 21's floor: "1.02× a direct draw + encode for text, 1.20× for photos").
 *
 *   node --import tsx bench/effects/endpoint.ts [--rounds 7] [--templates 4] [--base-dir DIR]
 *
 * The endpoint: GET /api/<site>/<slug>?text=…&stream=true on an engine in this process (the
 * render pool's worker threads, the render cache, the photo fetched from a local server,
 * the picture's bytes answered). The reference: renderTemplate on this thread, in a task's
 * surfaces as a worker runs it (withSurfaces), with the same template, text and photo bytes:
 * the drawing, the photo's decode and the PNG encode, and nothing else. A few text and photo
 * templates spread over the catalogue; each round times every one each way, in turns
 * (A B C, C B A, …), with a new text and new photo bytes each round (a JPEG with the round
 * number after its end marker: decoders ignore it, the render cache does not), so nothing is
 * answered from a cache. A round's ratio is its endpoint time over its direct time, summed
 * over its templates; the figure is the median of the rounds' ratios with their spread. Both
 * wall time and CPU time are reported: the CPU of this whole process (every thread: client,
 * server, render workers, direct draw) is the steadier measure on a shared, loaded machine,
 * where single calls of 50–200 ms wait for a core for as long as they run.
 * `--base-dir` adds the same endpoints as another checkout serves them (e.g. `git worktree
 * add --detach DIR a1c55fa`, this tree's node_modules linked in), in this process beside this
 * tree's engine, to the same turns: a change's before and after under the same load.
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Endpoint } from '../../engine/core/manifest-types.js';
import { renderTemplate } from '../../engine/features/effects/render.js';
import { samplePhoto } from '../../engine/features/effects/sample-photo.js';
import { withSurfaces } from '../../engine/features/effects/surfaces.js';
import type { Template } from '../../engine/features/effects/template.generated.js';
import { TEST_KEY, type Served } from '../../test/support/serve.js';
import { loadCheckout } from '../checkout.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const ROUNDS = Number(option('rounds') ?? 7);
const PER_KIND = Number(option('templates') ?? 4);
const BASE_DIR = option('base-dir');

const jpeg = await sharp(samplePhoto(640, 480)).jpeg({ quality: 85 }).toBuffer();
const photoOf = (round: number) => Buffer.concat([jpeg, Buffer.from(`round ${round}`)]);
const files = http.createServer((req, res) => {
  const round = Number(new URL(req.url!, 'http://files').searchParams.get('round'));
  res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photoOf(round));
});
await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
const photoUrl = (round: number) => `http://127.0.0.1:${(files.address() as AddressInfo).port}/photo.jpg?round=${round}`;

const templateOf = (e: Endpoint) => (e.adapter.config as { template: Template }).template;
const spread = <T>(xs: T[], n: number) => Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]);

interface Engine {
  served: Served;
  endpoints: Endpoint[];
}

/** A checkout's engine in this process, serving the effects named by `slugs` (a spread of text and photo effects when absent). */
async function engineOf(root: string, slugs?: string[]): Promise<Engine> {
  const checkout = await loadCheckout(root);
  const effects = checkout.endpoints('effects').filter((e) => e.adapter.kind === 'effect');
  const endpoints = slugs
    ? slugs.map((slug) => {
        const found = effects.find((e) => templateOf(e).slug === slug);
        if (!found) throw new Error(`${root} has no effect ${slug}`);
        return found;
      })
    : [
        ...spread(
          effects.filter((e) => templateOf(e).input.startsWith('text')),
          PER_KIND,
        ),
        ...spread(
          effects.filter((e) => templateOf(e).input.startsWith('image')),
          PER_KIND,
        ),
      ];
  return { served: await checkout.serve(endpoints), endpoints };
}

const now = await engineOf(ROOT);
const base = BASE_DIR
  ? await engineOf(
      path.resolve(BASE_DIR),
      now.endpoints.map((e) => templateOf(e).slug),
    )
  : undefined;
const kinds = {
  text: now.endpoints.filter((e) => templateOf(e).input.startsWith('text')),
  photo: now.endpoints.filter((e) => templateOf(e).input.startsWith('image')),
};

const paramsOf = (t: Template, round: number): Record<string, string> =>
  t.input === 'text2' ? { text1: `Manifold ${round}`, text2: 'Effects' } : t.input === 'image' ? {} : { text: `Manifold ${round}` };

async function viaEndpoint(engine: Engine, slug: string, round: number): Promise<number> {
  const e = engine.endpoints.find((x) => templateOf(x).slug === slug)!;
  const t = templateOf(e);
  const query = new URLSearchParams({ ...paramsOf(t, round), stream: 'true', ...(t.input.startsWith('image') ? { url: photoUrl(round) } : {}) });
  const start = performance.now();
  const answer = await fetch(`${engine.served.url}${e.path}?${query}`, { headers: { 'x-api-key': TEST_KEY } });
  const bytes = await answer.arrayBuffer();
  if (answer.status !== 200 || bytes.byteLength === 0) throw new Error(`${e.path}: HTTP ${answer.status}`);
  return performance.now() - start;
}

async function direct(e: Endpoint, round: number): Promise<number> {
  const t = templateOf(e);
  const photo = t.input.startsWith('image') ? photoOf(round) : undefined;
  const start = performance.now();
  await withSurfaces(() => renderTemplate(t, paramsOf(t, round), photo));
  return performance.now() - start;
}

type Way = 'endpoint' | 'base' | 'direct';
const ways: Way[] = base ? ['endpoint', 'base', 'direct'] : ['endpoint', 'direct'];
/** Wall ms, and CPU ms of this whole process (every thread: the client, the server, its render workers, the direct draw). */
async function timed(way: Way, e: Endpoint, round: number): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const wall = way === 'direct' ? await direct(e, round) : await viaEndpoint(way === 'base' ? base! : now, templateOf(e).slug, round);
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
console.log(`# ${os.cpus().length} cores, load average ${load()}; ${ROUNDS} rounds of ${PER_KIND} text and ${PER_KIND} photo templates`);

// warm: the pools' workers, fonts and JIT on every side
for (const e of [...kinds.text, ...kinds.photo]) for (const way of ways) await timed(way, e, -1);

const kindNames = ['text', 'photo'] as const;
type Kind = (typeof kindNames)[number];
type Measure = 'wall' | 'cpu';
const measures: Measure[] = ['wall', 'cpu'];
const empty = () => ({ wall: [] as number[], cpu: [] as number[] });
/** Per kind and way, each round's endpoint ÷ direct ratio (wall and CPU). */
const ratios: Record<Kind, Record<'endpoint' | 'base', Record<Measure, number[]>>> = {
  text: { endpoint: empty(), base: empty() },
  photo: { endpoint: empty(), base: empty() },
};
const calls: Record<Kind, Record<Way, Record<Measure, number[]>>> = {
  text: { endpoint: empty(), base: empty(), direct: empty() },
  photo: { endpoint: empty(), base: empty(), direct: empty() },
};
for (let round = 1; round <= ROUNDS; round++) {
  for (const kind of kindNames) {
    const sums: Record<Way, Record<Measure, number>> = { endpoint: { wall: 0, cpu: 0 }, base: { wall: 0, cpu: 0 }, direct: { wall: 0, cpu: 0 } };
    for (const e of kinds[kind]) {
      // A B C, C B A, …: a burst of load elsewhere falls on every way alike
      for (const way of round % 2 === 1 ? ways : [...ways].reverse()) {
        const took = await timed(way, e, round);
        for (const m of measures) {
          sums[way][m] += took[m];
          calls[kind][way][m].push(took[m]);
        }
      }
    }
    for (const way of base ? (['endpoint', 'base'] as const) : (['endpoint'] as const))
      for (const m of measures) ratios[kind][way][m].push(sums[way][m] / sums.direct[m]);
  }
  const last = (kind: Kind, way: 'endpoint' | 'base') => `${ratios[kind][way].wall.at(-1)!.toFixed(2)}× (CPU ${ratios[kind][way].cpu.at(-1)!.toFixed(2)}×)`;
  console.error(
    `round ${round}/${ROUNDS}: text ${last('text', 'endpoint')}, photo ${last('photo', 'endpoint')}` +
      (base ? `; base: text ${last('text', 'base')}, photo ${last('photo', 'base')}` : ''),
  );
}

const figure = (r: number[]) => `${median(r).toFixed(2)}× (${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)})`;
const ms = (xs: number[]) => median(xs).toFixed(0);
for (const m of measures) {
  console.log(
    `\n${m === 'wall' ? 'Wall time' : 'CPU time (the whole process)'} per call, medians; ratios: median of the rounds (min–max)\n` +
      `| effects | endpoint ms | direct draw + encode ms | endpoint ÷ direct |` +
      (base ? ` ${BASE_DIR}'s endpoint ms | its ÷ direct |` : '') +
      `\n|---|---:|---:|---:|${base ? '---:|---:|' : ''}`,
  );
  for (const kind of kindNames) {
    const c = calls[kind];
    console.log(
      `| ${kind} (${kinds[kind].map((e) => templateOf(e).slug).join(', ')}) | ${ms(c.endpoint[m])} | ${ms(c.direct[m])} | ${figure(ratios[kind].endpoint[m])} |` +
        (base ? ` ${ms(c.base[m])} | ${figure(ratios[kind].base[m])} |` : ''),
    );
  }
}
console.log(`# load average at the end ${load()}`);
await now.served.close();
await base?.served.close();
files.close();
