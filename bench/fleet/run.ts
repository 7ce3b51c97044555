/**
 * The fleet on one machine: requests/s and latency of a cheap endpoint and of a render endpoint through one vs two
 * API processes, and job throughput with one vs two workers, all on one PostgreSQL, Redis
 * and S3 bucket (s3rver), processes started as `npm start` starts them (test/fleet/fleet.ts).
 * Writes bench/fleet/RESULTS.md.
 *
 *   npm run bench:fleet            (ROUNDS=3 SECONDS=10 CONNECTIONS=50 JOBS=100 by default)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { startSite } from '../../test/jobs/site.js';
import { TEST_KEY, childPids, startEngine, startServices, type EngineProcess } from '../../test/fleet/fleet.js';
import { benchLifecycle } from '../db/measure.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const JOBS = Number(process.env.JOBS ?? 100);
const PATH = '/api/fun/quote';
// a render endpoint (Skia in the render pool, the image put in S3): every request a new text, so none is a cache hit
const RENDER = '/api/photooxy/arcade-retro-script';
let rendered = 0;
type Target = { label: string; path: string; fresh?: boolean };
const TARGETS: Target[] = [
  { label: `GET ${PATH}`, path: PATH },
  { label: `GET ${RENDER} (512 px, a new text each request)`, path: RENDER, fresh: true },
];
const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** CPU time (µs) a process and all its descendants have used, from /proc (clock ticks). */
const TICK_US = 1_000_000 / 100; // Linux USER_HZ
function treeCpuUs(pid: number): number {
  let us = 0;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after comm: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14)
    us = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_US;
  } catch {
    return 0; // gone
  }
  for (const child of childPids(pid)) us += treeCpuUs(child);
  return us;
}

const life = benchLifecycle();
process.once('SIGINT', () => void life.end().then(() => process.exit(130)));
const services = await startServices(life, { TEST_KEY_RPM: '1000000000', TEST_KEY_MAX_JOBS: '100000', PERSONAL_KEY_RPM: '1000000000' });
if ('missing' in services) {
  console.error(`bench:fleet needs PostgreSQL and Redis: ${services.missing}`);
  process.exit(1);
}
const { env } = services;
const start = (role: 'api' | 'worker') => startEngine(life, env, role);
const [api1, api2, worker] = await Promise.all([start('api'), start('api'), start('worker')]);
const engines = new Set([api1.pid, api2.pid, worker.pid]);
/** CPU of PostgreSQL and redis-server (the bench process's other children), for the cost of sharing state. */
const servicesCpuUs = () =>
  childPids()
    .filter((pid) => !engines.has(pid))
    .reduce((sum, pid) => sum + treeCpuUs(pid), 0);

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const loadAtStart = load();

type Sample = { rps: number; refused: number; p50: number; p99: number; apiCpu: number; servicesCpu: number; requests: number };
async function http(apis: EngineProcess[], seconds: number, target: Target = TARGETS[0]): Promise<Sample> {
  const apiBefore = apis.reduce((s, a) => s + treeCpuUs(a.pid), 0);
  const servicesBefore = servicesCpuUs();
  const result = await autocannon({
    // connections split evenly across the instances, as a round-robin balancer would (autocannon takes an array; its types say string)
    url: apis.map((a) => `${a.url}${target.path}`) as unknown as string,
    ...(target.fresh
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                path: `${target.path}?text1=R${rendered++}-${Date.now() % 1e6}&text2=fleet&size=512`,
              }),
            },
          ],
        }
      : {}),
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'X-API-Key': TEST_KEY },
  });
  // an overloaded machine can starve the Redis client past its 500 ms command timeout: the engine then
  // fails fast (503) by design. Counted and reported, not thrown; only 2xx answers count as throughput
  const refused = result.non2xx + result.errors + result.timeouts;
  if (refused > 0) {
    const logs = apis.flatMap((a) =>
      a
        .output()
        .split('\n')
        .filter((l) => /"level":"(warn|error)"/.test(l))
        .slice(-2),
    );
    console.log(
      `  ${refused} failed requests (status codes ${JSON.stringify(result.statusCodeStats)}, errors ${result.errors}, timeouts ${result.timeouts}); last warnings:\n  ${logs.join('\n  ')}`,
    );
  }
  const requests = result.requests.total;
  return {
    rps: result['2xx'] / seconds,
    refused,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests,
    apiCpu: (apis.reduce((s, a) => s + treeCpuUs(a.pid), 0) - apiBefore) / requests,
    servicesCpu: (servicesCpuUs() - servicesBefore) / requests,
  };
}

const site = await startSite(life, { assets: 4 });
const db = new pg.Client({ connectionString: env.DATABASE_URL });
await db.connect();
life.teardown(() => db.end());

let retried = 0;
type JobSample = { jobsPerSecond: number; medianLatencyMs: number; failed: number };
/** Submit JOBS web2zip jobs at once through api1 and wait for every record to finish (read from PostgreSQL, not polled over HTTP). */
async function jobs(): Promise<JobSample> {
  const started = Date.now();
  // 8 submissions in flight, as a busy client would; a 503 (the Redis client failing fast on a
  // starved machine) is retried after a second and counted
  const ids: string[] = [];
  let next = 0;
  const submitter = async () => {
    while (next < JOBS) {
      const i = next++;
      for (;;) {
        const res = await fetch(`${api1.url}/api/tools/web2zip?url=${encodeURIComponent(site)}&async=true&n=${started}-${i}`, {
          headers: { 'X-API-Key': TEST_KEY },
        });
        if (res.status === 503) {
          retried++;
          await res.arrayBuffer();
          await new Promise((resolve) => setTimeout(resolve, 1000));
          continue;
        }
        if (res.status !== 202) throw new Error(`job submission answered ${res.status}: ${await res.text()}`);
        ids.push(((await res.json()) as { result: { job_id: string } }).result.job_id);
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, submitter));
  for (;;) {
    const { rows } = await db.query<{ status: string; created_at: string; finished_at: string | null }>(
      'SELECT status, created_at, finished_at FROM jobs WHERE id = ANY($1)',
      [ids],
    );
    if (rows.every((r) => r.status === 'completed' || r.status === 'failed')) {
      const first = Math.min(...rows.map((r) => Date.parse(r.created_at)));
      const last = Math.max(...rows.map((r) => Date.parse(r.finished_at!)));
      return {
        jobsPerSecond: (JOBS * 1000) / (last - first),
        medianLatencyMs: median(rows.map((r) => Date.parse(r.finished_at!) - Date.parse(r.created_at))),
        failed: rows.filter((r) => r.status === 'failed').length,
      };
    }
    if (Date.now() - started > 300_000) throw new Error('jobs still unfinished after 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

console.log(`warm-up (2 s each)…`);
for (const target of TARGETS) {
  await http([api1], 2, target);
  await http([api1, api2], 2, target);
}
await jobs();

const measured = new Map<Target, { one: Sample[]; two: Sample[] }>();
for (const target of TARGETS) {
  const one: Sample[] = [];
  const two: Sample[] = [];
  measured.set(target, { one, two });
  for (let round = 0; round < ROUNDS; round++) {
    // alternate the order, so neither configuration always runs on the warmer machine
    const order = round % 2 ? ([two, one] as const) : ([one, two] as const);
    for (const samples of order) {
      const sample = await http(samples === one ? [api1] : [api1, api2], SECONDS, target);
      samples.push(sample);
      console.log(
        `${target.path}, round ${round + 1}, ${samples === one ? '1 API instance ' : '2 API instances'}: ${Math.round(sample.rps)} req/s, p50 ${sample.p50} ms, p99 ${sample.p99} ms`,
      );
    }
  }
}

const oneWorker: JobSample[] = [];
const twoWorkers: JobSample[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const single = await jobs();
  oneWorker.push(single);
  const second = await start('worker');
  engines.add(second.pid);
  await jobs(); // warm-up: a fresh worker's first jobs load the ZIP and S3 code
  const pair = await jobs();
  twoWorkers.push(pair);
  await second.stop('SIGTERM');
  engines.delete(second.pid);
  console.log(`round ${round + 1}, jobs: 1 worker ${single.jobsPerSecond.toFixed(1)}/s, 2 workers ${pair.jobsPerSecond.toFixed(1)}/s`);
  if (single.failed + pair.failed > 0) throw new Error(`${single.failed + pair.failed} jobs failed`);
}
const loadAtEnd = load();

const m = (samples: Sample[], field: keyof Sample) => median(samples.map((s) => s[field]));
const jm = (samples: JobSample[], field: keyof JobSample) => median(samples.map((s) => s[field]));
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(0)}%`;
const failedSum = (samples: Sample[]) => samples.reduce((sum, s) => sum + s.refused, 0);
const per = (samples: Sample[]) => samples.map((s) => Math.round(s.rps)).join(', ');
const httpTable = (
  target: Target,
  one: Sample[],
  two: Sample[],
) => `| ${target.label} | 2xx requests/s | p50 ms | p99 ms | API CPU µs/request | PostgreSQL + Redis CPU µs/request | 2xx requests/s per round | failed (all rounds) |
|---|---:|---:|---:|---:|---:|---|---:|
| 1 API instance | ${Math.round(m(one, 'rps'))} | ${m(one, 'p50')} | ${m(one, 'p99')} | ${Math.round(m(one, 'apiCpu'))} | ${Math.round(m(one, 'servicesCpu'))} | ${per(one)} | ${failedSum(one)} |
| 2 API instances | ${Math.round(m(two, 'rps'))} | ${m(two, 'p50')} | ${m(two, 'p99')} | ${Math.round(m(two, 'apiCpu'))} | ${Math.round(m(two, 'servicesCpu'))} | ${per(two)} | ${failedSum(two)} |

2 vs 1 API instances: ${pct(m(two, 'rps'), m(one, 'rps'))} of the requests/s (median of rounds), median of per-round ratios ${pct(median(one.map((o, i) => two[i].rps / o.rps)), 1)}.
`;
const cpu = os.cpus();
const report = `# Fleet benchmark

Generated by \`npm run bench:fleet\` on ${new Date().toISOString()}.

- Machine: ${cpu[0].model.trim()}, ${cpu.length} cores, shared with other work (load average 1/5/15 min at start ${loadAtStart}, at end ${loadAtEnd}), Node ${process.version}
- Every process on this machine: PostgreSQL ${env.DATABASE_URL.replace(/.*@/, '')}, redis-server, s3rver (in the bench process), two \`MANIFOLD_ROLE=api\` and one \`MANIFOLD_ROLE=worker\` engine processes started as \`npm start\` starts them, and autocannon (in the bench process)
- HTTP: ${TARGETS.map((t) => `\`${t.label}\``).join(' and ')} with the test key (Redis sliding-window rate limit per request, usage counted and written to PostgreSQL in batches, limit out of reach), autocannon ${CONNECTIONS} connections, ${SECONDS} s per configuration per round, ${ROUNDS} rounds in alternating order (median shown), after a 2 s warm-up; with two instances autocannon spreads its connections evenly over both (what a round-robin balancer does, without a balancer's own cost)
- Jobs: ${JOBS} \`/api/tools/web2zip\` jobs (\`async=true\`, a local page with 4 images: fetch, ZIP, put in S3, record) submitted through one API instance, 8 at a time; throughput from the first record's creation to the last one's end, read from PostgreSQL; JOBS_CONCURRENCY=2 per worker (the default)

${[...measured].map(([target, { one, two }]) => httpTable(target, one, two)).join('\n')}
| jobs | jobs/s | median submit → done ms | jobs/s per round |
|---|---:|---:|---|
| 1 worker | ${jm(oneWorker, 'jobsPerSecond').toFixed(1)} | ${Math.round(jm(oneWorker, 'medianLatencyMs'))} | ${oneWorker.map((s) => s.jobsPerSecond.toFixed(1)).join(', ')} |
| 2 workers | ${jm(twoWorkers, 'jobsPerSecond').toFixed(1)} | ${Math.round(jm(twoWorkers, 'medianLatencyMs'))} | ${twoWorkers.map((s) => s.jobsPerSecond.toFixed(1)).join(', ')} |

2 vs 1 workers: ${pct(jm(twoWorkers, 'jobsPerSecond'), jm(oneWorker, 'jobsPerSecond'))} of the jobs/s. Submissions answered 503 and retried: ${retried}.
`;
console.log(`\n${report}`);
const notes = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, 'utf8').split('\n## Reading these figures')[1] : undefined;
fs.writeFileSync(RESULTS, notes === undefined ? report : `${report}\n## Reading these figures${notes}`);
await life.end();
process.exit(0);
