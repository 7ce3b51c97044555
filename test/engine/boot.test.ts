/**
 * `npm start` as a user runs it: scripts/start.mjs in a child process, running the
 * built JavaScript (rebuilt first if engine/ changed). Boots the full registry,
 * serves HTTPS with HSTS when given a certificate, loads the heavy libraries on first
 * use (an effect rendered by the built worker, a JSON body, a lazily loaded tool), and
 * refuses to start on a bad manifest, naming its file.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import t from 'tap';
import { SQLITE_DRIVER } from '../../engine/platform/db/sqlite-driver.js';
import { tempDataDir } from '../support/serve.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function start(env: Record<string, string>, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, 'scripts/start.mjs'], {
    cwd: ROOT,
    // ENV_FILE: a .env in the checkout is a developer's, not this test's
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', DATA_DIR: tempDataDir(), ENV_FILE: '/dev/null', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const listening = new Promise<{ url: string; bootMs: number; endpoints: number }>((resolve, reject) => {
    child.stdout.on('data', () => {
      // only whole lines: a chunk may end mid-line
      const line = out
        .split('\n')
        .slice(0, -1)
        .find((l) => l.includes('"listening"'));
      if (line) resolve(JSON.parse(line));
    });
    child.once('close', (code) => reject(Object.assign(new Error(`exited ${code}`), { code, err })));
  });
  return { child, listening, output: () => ({ out, err }) };
}

t.test('HTTPS with HSTS from TLS_CERT_FILE/TLS_KEY_FILE, full registry', async (t) => {
  const dir = tempDataDir('manifold-tls-');
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], {
    stdio: 'ignore',
  });
  const server = start({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key });
  t.teardown(() => {
    server.child.kill();
  });
  const info = await server.listening;
  t.match(info.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  t.ok(info.endpoints > 0, `${info.endpoints} endpoints, boot ${info.bootMs} ms`);
  const answer = await new Promise<{ status: number; hsts?: string; body: string }>((resolve, reject) => {
    https
      .get(`${info.url}/health`, { rejectUnauthorized: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, hsts: res.headers['strict-transport-security'] as string, body }));
      })
      .on('error', reject);
  });
  t.equal(answer.status, 200);
  t.match(answer.hsts, /max-age=\d+/);
  t.match(JSON.parse(answer.body), { status: 'ok', version: '3.0.4' });
});

t.test('boot loads no database or queue client (Kysely, pg, BullMQ and ioredis load on first use) and no OpenTelemetry while tracing is off', async (t) => {
  // a value import of one of them in a module on the boot path cost ~130 ms of every start once
  const file = path.join(tempDataDir('manifold-loads-'), 'loads.json');
  const server = start({ RECORD_LOADS_FILE: file }, ['--import', './test/support/record-loads.mjs']);
  t.teardown(() => {
    server.child.kill();
  });
  await server.listening;
  const loaded = JSON.parse(fs.readFileSync(file, 'utf8')) as string[];
  const packages = new Set(loaded.flatMap((url) => url.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1] ?? []));
  t.ok(packages.has('koa') && packages.has(SQLITE_DRIVER), 'the recording sees what boot loads');
  t.same(
    ['kysely', 'pg', 'bullmq', 'ioredis', '@opentelemetry/api', '@opentelemetry/sdk-node'].filter((name) => packages.has(name)),
    [],
    'none of them loaded before listening',
  );
});

t.test('the built engine serves what loads on first use: effects (Skia in the built worker), bodies, tools', async (t) => {
  const server = start({});
  t.teardown(() => {
    server.child.kill();
  });
  const { url } = await server.listening;
  const key = 'apikey=manifold-test';
  const effect = await fetch(`${url}/api/ephoto360/galaxy?${key}&text=Boot&size=256&stream=true`);
  t.equal(effect.status, 200);
  t.equal(effect.headers.get('content-type'), 'image/png');
  t.ok((await effect.arrayBuffer()).byteLength > 1000, 'a rendered image');
  const minified = await fetch(`${url}/api/tools/minifycss`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apikey: 'manifold-test', code: 'a {  color : red ; }' }),
  });
  t.match(await minified.json(), { status: 200, result: { result: 'a{color:red}' } });
  const stopped = new Promise((resolve) => server.child.once('close', resolve));
  server.child.kill('SIGTERM');
  t.equal(await stopped, 0, 'a graceful shutdown stops the pools it started');
});

t.test('a bad manifest stops boot and names its file and field', async (t) => {
  const dir = tempDataDir('manifold-bad-');
  fs.mkdirSync(path.join(dir, 'fun'));
  fs.writeFileSync(
    path.join(dir, 'fun', 'broken.yaml'),
    'path: /api/fun/broken\ncategory: fun\nsummary: Broken one\nadapter: { kind: dataset }\nexamples: []\n',
  );
  const server = start({ ENDPOINTS_DIR: dir });
  const error = await server.listening.then(
    () => undefined,
    (e) => e,
  );
  t.ok(error, 'the process exits');
  t.equal(error.code, 1);
  t.match(server.output().err, /fun\/broken\.yaml: examples: must NOT have fewer than 1 items/);
  t.notMatch(server.output().err, /\n\s+at /, 'no stack trace');
});

t.test('a port already in use stops boot with one line saying so, not a stack', async (t) => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => taken.close());
  const port = (taken.address() as net.AddressInfo).port;
  const server = start({ PORT: String(port) });
  t.teardown(() => {
    server.child.kill();
  });
  const error = await server.listening.then(
    () => undefined,
    (e) => e,
  );
  t.ok(error, 'the process exits');
  t.equal(error.code, 1);
  t.match(server.output().err, `manifold: cannot start: 127.0.0.1:${port} is already in use`);
  t.notMatch(server.output().err, /\n\s+at /, 'no stack trace');
});
