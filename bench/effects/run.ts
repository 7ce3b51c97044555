/**
 * Effect renderer benchmark: per-template render time at the default size and
 * format (median, p95, worst), then pool throughput with one vs two workers.
 * Run: node --import tsx bench/effects/run.ts [templates-to-time]
 * Numbers depend on the machine and its load; the load average is printed.
 */
import os from 'node:os';
import { loadTemplates } from '../../engine/features/effects/templates.js';
import { renderTemplate } from '../../engine/features/effects/render.js';
import { RenderPool } from '../../engine/features/effects/render-pool.js';
import { samplePhoto } from '../../engine/features/effects/sample-photo.js';

const photo = samplePhoto(640, 480);
const params = { text: 'Manifold', text1: 'Manifold', text2: 'Effects' };
const all = [...loadTemplates().values()].map((l) => l.template);
const limit = Number(process.argv[2]) || all.length;
const sample = all.filter((_, i) => i % Math.max(1, Math.floor(all.length / limit)) === 0).slice(0, limit);
const photoFor = (t: (typeof all)[number]) => (t.input.startsWith('image') ? photo : undefined);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

console.log(
  `# ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}, ${sample.length} templates`,
);
for (const t of sample.slice(0, 5)) await renderTemplate(t, params, photoFor(t)); // warm up fonts and JIT

// CPU time (user+system of this process) is reported next to wall time: on a
// shared, oversubscribed machine it is the steadier measure of the work done.
const times: { ms: number; cpu: number; slug: string; bytes: number }[] = [];
for (const t of sample) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const r = await renderTemplate(t, params, photoFor(t));
  const used = process.cpuUsage(cpu);
  times.push({ ms: performance.now() - start, cpu: (used.user + used.system) / 1000, slug: t.slug, bytes: r.data.length });
}
const ms = times.map((x) => x.ms);
const cpu = times.map((x) => x.cpu);
console.log(
  `single render, ${sample[0].canvas.width}×${sample[0].canvas.height} PNG: wall median ${pct(ms, 0.5).toFixed(1)} ms, p95 ${pct(ms, 0.95).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms; ` +
    `CPU median ${pct(cpu, 0.5).toFixed(1)} ms, p95 ${pct(cpu, 0.95).toFixed(1)} ms; median size ${(
      pct(
        times.map((x) => x.bytes),
        0.5,
      ) / 1024
    ).toFixed(0)} KiB`,
);
console.log(
  `slowest: ${[...times]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((x) => `${x.slug} ${x.ms.toFixed(0)} ms`)
    .join(', ')}`,
);

async function throughput(threads: number, jobs: number): Promise<number> {
  const pool = new RenderPool({ threads, queue: jobs });
  const warm = sample.slice(0, threads * 2);
  await Promise.all(warm.map((t) => pool.render({ template: t, params, photo: photoFor(t) })));
  const start = performance.now();
  await Promise.all(Array.from({ length: jobs }, (_, i) => sample[i % sample.length]).map((t) => pool.render({ template: t, params, photo: photoFor(t) })));
  const perSecond = jobs / ((performance.now() - start) / 1000);
  await pool.close();
  return perSecond;
}
const jobs = Math.min(120, sample.length * 2);
const one = await throughput(1, jobs);
const two = await throughput(2, jobs);
console.log(`throughput: 1 worker ${one.toFixed(1)} renders/s, 2 workers ${two.toFixed(1)} renders/s (${(two / one).toFixed(2)}×)`);
