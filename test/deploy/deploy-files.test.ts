import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import YAML from 'yaml';
import { ROOT } from '../../engine/root.js';

// The images cannot be built here (no container registry): these checks keep the files
// honest against the code — what CI installs, the variables the engine reads, the routes.
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

t.test('the Dockerfile installs what CI installs, runs as a non-root user and checks /health', async (t) => {
  const dockerfile = read('deploy/Dockerfile');
  const ci = read('.ci/run');
  const aptLists = [...ci.matchAll(/APT_PACKAGES\+?=\(([^)]*)\)/g)].flatMap((m) => m[1].split(/\s+/).filter(Boolean));
  // servers the tests start themselves run as their own containers in compose
  const serversOfTheirOwn = new Set(['redis-server', 'postgresql', 'yt-dlp']);
  const missing = aptLists.filter((pkg) => !serversOfTheirOwn.has(pkg) && !new RegExp(`\\s${pkg.replace(/[.+]/g, '\\$&')}(\\s|\\\\)`).test(dockerfile));
  t.same(missing, [], 'every system package of .ci/run (but the test-only servers) is in the image');
  t.match(dockerfile, /^FROM node:20-bookworm/m, 'Debian bookworm, the Node major the engine supports');
  t.match(dockerfile, /^USER manifold$/m, 'non-root');
  t.match(dockerfile, /^HEALTHCHECK .*\/health/ms, 'health check on /health');
  t.match(dockerfile, /yt-dlp\/releases\//, "a current yt-dlp release, not Debian's");
  t.match(dockerfile, /npm ci/);
  for (const copied of dockerfile.matchAll(/^COPY (\S+) /gm)) {
    for (const file of copied[1].split(' ')) t.ok(fs.existsSync(path.join(ROOT, file)), `COPY ${file} exists`);
  }
});

t.test('compose runs two API instances and a worker on shared PostgreSQL, Redis and S3, behind a proxy', async (t) => {
  const compose = YAML.parse(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; build?: unknown }>;
  };
  const instances = Object.entries(compose.services).filter(([, s]) => s.build);
  const apis = instances.filter(([, s]) => s.environment?.MANIFOLD_ROLE !== 'worker');
  t.ok(apis.length >= 2, 'at least two API instances');
  const workers = instances.filter(([, s]) => s.environment?.MANIFOLD_ROLE === 'worker');
  t.ok(workers.length >= 1, 'a job worker');
  for (const [name, service] of [...apis, ...workers]) t.ok(service.environment?.MANIFOLD_ROLE, `${name} sets MANIFOLD_ROLE`);
  const readme = read('README.md');
  for (const [name, service] of apis) {
    const env = service.environment ?? {};
    for (const variable of ['DATABASE_URL', 'REDIS_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'PUBLIC_BASE_URL', 'TRUST_PROXY'])
      t.ok(env[variable], `${name} sets ${variable}`);
    for (const variable of Object.keys(env)) t.match(readme, `\`${variable}\``, `${variable} is documented in the README`);
    t.match(env.DATABASE_URL, /@postgres:/, `${name} uses the compose PostgreSQL`);
    t.match(env.REDIS_URL, /redis:\/\/redis:/, `${name} uses the compose Redis`);
  }
  t.ok(compose.services.postgres && compose.services.redis && compose.services.minio && compose.services.proxy, 'PostgreSQL, Redis, MinIO and the proxy');
  const nginx = read('deploy/nginx.conf');
  for (const [name] of apis) t.match(nginx, `server ${name}:3000`, `the proxy balances over ${name}`);
});
