import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import YAML from 'yaml';
import { validate, ValidationSeverity, type ValidatorSettings } from 'dockerfile-utils';
import { ROOT } from '../../engine/core/root.js';

/**
 * The Docker engine does not run on the machines Manifold is built on, so the images are
 * never built here. What can be checked offline is, with the tools that exist: the
 * Dockerfile through dockerfile-utils' linter and against what CI installs; compose.yaml
 * through Debian's docker-compose (`config`: schema and interpolation) and against the
 * code; prometheus.yml through promtool (Debian's `prometheus`). nginx.conf has its own
 * test (nginx.test.ts). Each tool-backed check skips, saying so, where the tool is absent;
 * .ci/run installs them all.
 */
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const which = (names: string[]) => names.find((bin) => fs.existsSync(bin));

function run(bin: string, args: string[], options: { cwd?: string } = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const dockerfile = read('deploy/Dockerfile');

t.test('the Dockerfile passes the linter with every optional rule as an error', async (t) => {
  const strict = Object.fromEntries(
    [
      'deprecatedMaintainer',
      'directiveCasing',
      'emptyContinuationLine',
      'instructionCasing',
      'instructionCmdMultiple',
      'instructionEntrypointMultiple',
      'instructionHealthcheckMultiple',
      'instructionJSONInSingleQuotes',
      'instructionWorkdirRelative',
    ].map((rule) => [rule, ValidationSeverity.ERROR]),
  ) as ValidatorSettings;
  const problems = (await validate(dockerfile, strict)).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
  t.same(problems, []);
  const broken = await validate(dockerfile.replace('HEALTHCHECK --interval', 'HEALTHCHEK --interval'), strict);
  t.ok(broken.length > 0, 'and the linter does catch a broken instruction');
});

t.test('the Dockerfile: Node LTS, dependencies before sources, what CI installs, non-root, readiness', async (t) => {
  const image = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)\.(\d+)-bookworm-slim$/m.exec(dockerfile);
  t.ok(image, 'the base image is pinned to a full Node version on bookworm (the Debian release CI tests)');
  const major = Number(image?.[1]);
  t.ok(major >= 22 && major % 2 === 0, `Node ${major} is an LTS line, 22 or newer`);
  t.match(dockerfile, /^FROM \$\{NODE_IMAGE\} AS deps$/m);

  const lines = dockerfile.split('\n');
  const at = (re: RegExp) => lines.findIndex((line) => re.test(line));
  t.ok(at(/^COPY package\.json package-lock\.json/) < at(/npm ci /), 'the manifests are copied before npm ci');
  t.ok(at(/npm ci /) < at(/^COPY (engine|scripts|endpoints|templates) /), 'npm ci runs before any source is copied (its layer survives source edits)');
  t.match(dockerfile, /^COPY clients\/typescript\/package\.json /m, 'the workspace manifest npm ci needs');

  const ci = read('.ci/run');
  const aptLists = [...ci.matchAll(/APT_PACKAGES\+?=\(([^)]*)\)/g)].flatMap((m) => m[1].split(/\s+/).filter(Boolean));
  // servers the tests start themselves (their own containers in compose), tools only the tests
  // or `npm ci` use (the compiler is in the image's build stage), and yt-dlp (its own release)
  const notInTheImage = new Set(['redis-server', 'postgresql', 'yt-dlp', 'nginx-light', 'prometheus', 'docker-compose', 'procps', 'openssl', 'g++', 'make']);
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const missing = aptLists.filter((pkg) => !notInTheImage.has(pkg) && !new RegExp(`\\s${pkg.replace(/[.+]/g, '\\$&')}(\\s|\\\\)`).test(runtime));
  t.same(missing, [], 'every system package of .ci/run (but the test-only ones) is in the runtime image');
  t.notMatch(runtime, /\bg\+\+|\bmake\b/, 'no compiler in the runtime image');

  t.match(runtime, /^USER manifold$/m, 'non-root');
  t.same(
    [...runtime.matchAll(/^USER (\S+)$/gm)].map((m) => m[1]),
    ['manifold'],
    'one switch, to the service user, and none back to root',
  );
  t.match(runtime, /^HEALTHCHECK [^\n]*\\\n\s+CMD curl -fsS "http:\/\/127\.0\.0\.1:\$\{PORT\}\/health\/ready"/m, 'the health check is readiness');
  t.match(runtime, /^ARG YTDLP_VERSION=\d{4}\.\d{2}\.\d{2}$/m, 'yt-dlp pinned to a release');
  t.match(
    runtime,
    /^RUN node --import tsx scripts\/ytdlp-update\.ts "\$\{YTDLP_VERSION\}" --dest \/opt\/yt-dlp\/yt-dlp$/m,
    'installed through the checksum-verifying update script',
  );
  t.match(runtime, /YTDLP_PATH=\/opt\/yt-dlp\/yt-dlp/);
  t.match(runtime, /YTDLP_JS_RUNTIMES=node\b/, "yt-dlp runs YouTube's player code on the image's Node");
  for (const copied of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)) {
    for (const file of copied[1].split(' ')) t.ok(fs.existsSync(path.join(ROOT, file)), `COPY ${file} exists`);
  }
  const ignored = read('.dockerignore');
  for (const entry of ['.git', '**/node_modules', '/build', 'deploy/.env'])
    t.match(ignored, new RegExp(`^${entry.replace(/[.*+/]/g, '\\$&')}$`, 'm'), `.dockerignore keeps ${entry} out`);
});

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  deploy?: { replicas?: string | number };
  ports?: string[];
  container_name?: string;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  entrypoint?: string[];
}
const composeText = read('deploy/compose.yaml');
const compose = YAML.parse(composeText, { merge: true }) as { services: Record<string, Service> };

t.test('compose: pinned images that exist today, replicas by one setting, secrets required', async (t) => {
  for (const [name, service] of Object.entries(compose.services)) {
    if (service.build) {
      t.equal(service.image, 'manifold:local', `${name} shares the one local build`);
      continue;
    }
    t.match(service.image, /^[\w./-]+:v?\d+\.\d+(\.\d+)?(-[\w.]+)?$/, `${name}: ${service.image} is pinned to a version`);
  }
  t.notOk(
    Object.values(compose.services).some((s) => /minio/i.test(s.image ?? '')),
    'no MinIO image (its community images are gone)',
  );
  t.notMatch(composeText, /change-?me/i, 'no placeholder secrets');

  const api = compose.services.api;
  const worker = compose.services.worker;
  t.equal(api?.environment?.MANIFOLD_ROLE, 'api');
  t.equal(worker?.environment?.MANIFOLD_ROLE, 'worker');
  for (const [name, service] of [
    ['api', api],
    ['worker', worker],
  ] as const) {
    t.match(String(service?.deploy?.replicas), /^\$\{[A-Z_]+:-\d+\}$/, `${name}: replicas from one setting`);
    t.notOk(service?.container_name || service?.ports, `${name}: no fixed name or host port, so it can scale`);
    for (const dep of ['postgres', 'redis', 's3']) t.equal(service?.depends_on?.[dep]?.condition, 'service_healthy', `${name} waits for ${dep}`);
  }
  t.same(compose.services.proxy?.depends_on?.api, { condition: 'service_healthy' }, 'nginx waits for a ready API (the image health check is /health/ready)');
  t.match(read('deploy/nginx.conf'), /default http:\/\/api:3000;/, 'nginx reaches the api service by its DNS name');

  const env = api?.environment ?? {};
  for (const variable of ['DATABASE_URL', 'REDIS_URL', 'S3_BUCKET', 'S3_ENDPOINT', 'PUBLIC_BASE_URL', 'TRUST_PROXY'])
    t.ok(env[variable], `api sets ${variable}`);
  // the README, or the settings reference generated from engine/platform/settings/variables.yaml
  const documented = read('README.md') + read('docs/operating/settings.md');
  for (const variable of Object.keys(env)) t.match(documented, `\`${variable}\``, `${variable} is documented (README or docs/operating/settings.md)`);
  t.match(env.DATABASE_URL, /@postgres:/);
  t.match(env.REDIS_URL, /^redis:\/\/redis:/);
  t.equal(env.S3_ENDPOINT, 'http://s3:8333', 'the SeaweedFS S3 gateway');
  for (const secret of ['ADMIN_TOKEN', 'METRICS_TOKEN', 'WEBHOOK_SECRET', 'AWS_SECRET_ACCESS_KEY'])
    t.match(env[secret], /^\$\{[A-Z0-9_]+:\?set [A-Z0-9_]+ in deploy\/\.env\}$/, `${secret} is required from deploy/.env`);
  t.match(env.DATABASE_URL, /\$\{POSTGRES_PASSWORD:\?set POSTGRES_PASSWORD in deploy\/\.env\}/);
});

const dockerCompose = which(['/usr/bin/docker-compose', '/usr/local/bin/docker-compose']);
t.test(
  'docker-compose config: the file is valid and refuses to start without deploy/.env',
  { skip: dockerCompose ? false : 'docker-compose is not installed (apt-get install docker-compose; .ci/run installs it)' },
  async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-compose-'));
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
    // Debian's docker-compose is 1.29, which predates the top-level `name:` (compose v2 reads
    // it): checked without that one line, everything else as shipped, next to nginx.conf and
    // monitoring/ as in deploy/
    fs.writeFileSync(path.join(dir, 'compose.yaml'), composeText.replace(/^name: manifold\n/m, ''));
    fs.cpSync(path.join(ROOT, 'deploy/nginx.conf'), path.join(dir, 'nginx.conf'));
    const secrets = ['POSTGRES_PASSWORD', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'ADMIN_TOKEN', 'METRICS_TOKEN', 'WEBHOOK_SECRET'];
    fs.writeFileSync(path.join(dir, 'test.env'), secrets.map((name, i) => `${name}=${name.toLowerCase()}-${i}-0123456789abcdef`).join('\n'));

    const ok = await run(dockerCompose!, ['-f', 'compose.yaml', '--env-file', 'test.env', 'config'], { cwd: dir });
    t.equal(ok.code, 0, ok.output);
    const resolved = YAML.parse(ok.output) as { services: Record<string, Service> };
    t.equal(resolved.services.api?.environment?.DATABASE_URL, 'postgres://manifold:postgres_password-0-0123456789abcdef@postgres:5432/manifold');
    t.equal(resolved.services.api?.deploy?.replicas, 2, 'two API replicas unless API_REPLICAS says otherwise');

    fs.writeFileSync(path.join(dir, 'partial.env'), 'POSTGRES_PASSWORD=x\n');
    const refused = await run(dockerCompose!, ['-f', 'compose.yaml', '--env-file', 'partial.env', 'config'], { cwd: dir });
    t.not(refused.code, 0, 'a missing secret stops compose before anything starts');
    t.match(refused.output, /set [A-Z_]+ in deploy\/\.env/);
  },
);

t.test('Prometheus finds every replica through Docker DNS, with the token compose writes', async (t) => {
  const prometheus = YAML.parse(read('deploy/monitoring/prometheus.yml')) as {
    scrape_configs: {
      job_name: string;
      dns_sd_configs?: { names: string[]; port: number }[];
      static_configs?: unknown;
      authorization?: { credentials_file?: string };
    }[];
  };
  const scaled = Object.entries(compose.services)
    .filter(([, s]) => s.build)
    .map(([name]) => name);
  const found = prometheus.scrape_configs.flatMap((c) => c.dns_sd_configs ?? []).flatMap((d) => d.names);
  t.same(found.sort(), scaled.sort(), 'every Manifold service, by name');
  t.notOk(
    prometheus.scrape_configs.some((c) => c.static_configs),
    'no per-instance targets',
  );
  const tokenFile = prometheus.scrape_configs[0]?.authorization?.credentials_file;
  t.ok(tokenFile && compose.services.prometheus?.entrypoint?.join(' ').includes(`> ${tokenFile}`), `compose writes ${tokenFile}`);
});

const promtool = which(['/usr/bin/promtool', '/usr/local/bin/promtool']);
t.test('promtool check config', { skip: promtool ? false : 'promtool is not installed (apt-get install prometheus; .ci/run installs it)' }, async (t) => {
  // a copy of deploy/monitoring whose token file is a local one: promtool checks that it exists
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-prometheus-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(path.join(ROOT, 'deploy/monitoring'), dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'metrics-token'), 'token');
  const config = path.join(dir, 'prometheus.yml');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replaceAll('/prometheus/metrics-token', path.join(dir, 'metrics-token')));
  const checked = await run(promtool!, ['check', 'config', config]);
  t.equal(checked.code, 0, checked.output);
  t.match(checked.output, /SUCCESS/);
});
