import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ROOT } from '../../engine/core/root.js';

/**
 * deploy/nginx.conf under Debian's nginx (.ci/run installs nginx-light): `nginx -t` on the
 * file as shipped, then a copy whose only changes are the addresses (the API at a local
 * stand-in instead of Docker's `api:3000`, the listeners on free loopback ports) serves
 * real requests: the client's X-Request-Id passes through (one is made only when absent),
 * X-Forwarded-For is the address nginx saw, never what the client claimed, and /metrics
 * and the admin routes answer 404 on the public side, whatever the spelling, while the
 * internal listener passes them.
 */
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((bin) => fs.existsSync(bin));
if (!NGINX) t.plan(0, 'nginx is not installed (apt-get install nginx-light; .ci/run installs it)');
else await checkNginx(NGINX);

async function checkNginx(nginx: string) {
  const conf = fs.readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-nginx-'));
  const children: ChildProcess[] = [];

  interface Seen {
    url: string;
    headers: http.IncomingHttpHeaders;
  }
  const seen: Seen[] = [];
  const backend = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': String(req.headers['x-request-id'] ?? '') }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));

  t.teardown(async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
    backend.close();
    fs.closeSync(outputFd);
    fs.rmSync(work, { recursive: true, force: true });
  });

  /**
   * nginx's output goes to a file: the shipped config logs to /dev/stdout and /dev/stderr
   * (as the nginx image expects), which cannot be opened on the socket pairs Node gives a child.
   */
  const logFile = path.join(work, 'nginx.out');
  const outputFd = fs.openSync(logFile, 'a');
  const output = () => fs.readFileSync(logFile, 'utf8');
  const run = (args: string[]) =>
    new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn(nginx, args, { stdio: ['ignore', outputFd, outputFd] });
      child.once('exit', (code) => resolve({ code: code ?? 1, stderr: output() }));
    });
  /** nginx's own files (pid, temp) in the work directory, so nothing of the host's is touched. */
  const local = (name: string) => ['-e', 'stderr', '-p', `${work}/`, '-c', name, '-g', `pid ${work}/${path.basename(name)}.pid;`];

  /** A free loopback port (listen on 0, close, hand it to nginx). */
  async function freePort(): Promise<number> {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  /** Replace exactly one occurrence, so a change to the shipped file's shape fails here loudly. */
  function once(text: string, from: string, to: string): string {
    const count = text.split(from).length - 1;
    if (count !== 1) throw new Error(`deploy/nginx.conf: expected "${from}" once, found it ${count} times`);
    return text.replace(from, to);
  }

  const publicPort = await freePort();
  const internalPort = await freePort();
  const api = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
  let rendered = once(conf, 'default http://api:3000;', `default ${api};`);
  rendered = once(rendered, 'listen 80;', `listen 127.0.0.1:${publicPort};`);
  rendered = once(rendered, 'listen 8081;', `listen 127.0.0.1:${internalPort};`);
  rendered = once(rendered, 'worker_processes auto;', 'worker_processes 1;');
  const renderedFile = path.join(work, 'nginx.conf');
  fs.writeFileSync(renderedFile, rendered);

  const started = spawn(nginx, [...local(renderedFile), '-g', 'daemon off;'], { stdio: ['ignore', outputFd, outputFd] });
  children.push(started);

  interface Answer {
    status: number;
    headers: http.IncomingHttpHeaders;
    body: string;
  }
  /** A request with a raw path (no URL normalisation on the client side). */
  function request(port: number, rawPath: string, headers: Record<string, string> = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: rawPath, headers, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** nginx has bound its ports once a connection is accepted; give up only if it exits or never does. */
  async function ready(port: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (started.exitCode !== null) throw new Error(`nginx exited: ${output()}`);
      try {
        await request(port, '/__ready');
        return;
      } catch (error) {
        if (attempt > 600) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
  await ready(publicPort);

  // every subtest is declared after the set-up above, so the teardown waits for them all
  t.test('nginx -t accepts deploy/nginx.conf as shipped', async (t) => {
    const result = await run(['-t', '-q', ...local(path.join(ROOT, 'deploy/nginx.conf'))]);
    t.equal(result.code, 0, result.stderr);
  });

  t.test("the client's X-Request-Id passes through; one is made only when absent", async (t) => {
    seen.length = 0;
    const passed = await request(publicPort, '/api/fun/quote?apikey=k', { 'x-request-id': 'bot-7f3a-0001' });
    t.equal(passed.status, 200);
    t.equal(seen[0]?.headers['x-request-id'], 'bot-7f3a-0001', 'the API sees the client id');
    t.equal(passed.headers['x-request-id'], 'bot-7f3a-0001', 'and it comes back');
    t.equal(seen[0]?.url, '/api/fun/quote?apikey=k', 'path and query unchanged');
    t.equal((await request(publicPort, '/api/fun/quote')).status, 200);
    t.match(seen[1]?.headers['x-request-id'], /^[0-9a-f]{32}$/, 'nginx made one');
  });

  t.test('X-Forwarded-For is the address nginx saw, never what the client claimed', async (t) => {
    seen.length = 0;
    await request(publicPort, '/api/fun/quote', { 'x-forwarded-for': '203.0.113.9, 10.0.0.1', 'x-real-ip': '203.0.113.9' });
    t.equal(seen[0]?.headers['x-forwarded-for'], '127.0.0.1');
    t.equal(seen[0]?.headers['x-real-ip'], '127.0.0.1');
    t.equal(seen[0]?.headers['x-forwarded-proto'], 'http');
  });

  t.test('/metrics and the admin routes answer 404 on the public side, however they are spelled', async (t) => {
    const hidden = [
      '/metrics',
      '/metrics?format=text',
      '/metrics/',
      '/api/admin',
      '/api/admin/keys',
      '/api/admin/usage?days=7',
      '/API/Admin/keys',
      '/api//admin/keys',
      '//api/admin/endpoints',
      '/api/%61dmin/keys',
      '/%6Detrics',
      '/as/web.id/api/admin/keys',
      '/as/web.id/metrics',
      '/AS/gifted.co.ke//api/admin/usage',
      '/admin',
      '/admin/console.js',
      '/Admin',
      '//admin/',
      '/as/web.id/admin',
    ];
    seen.length = 0;
    for (const rawPath of hidden) {
      const answer = await request(publicPort, rawPath, { 'x-request-id': 'probe-1' });
      t.equal(answer.status, 404, rawPath);
      t.match(JSON.parse(answer.body), { status: 404, success: false, error: 'not_found' }, `${rawPath}: the JSON envelope`);
      t.equal(answer.headers['x-request-id'], 'probe-1', `${rawPath}: with the request id`);
    }
    t.same(
      seen.map((s) => s.url),
      [],
      'none reached the API',
    );
    // not more than that: paths that only begin alike still pass
    for (const rawPath of ['/api/adminfoo', '/metricsx', '/api/tools/admin', '/administrator']) {
      const answer = await request(publicPort, rawPath);
      t.equal(answer.status, 200, `${rawPath} passes`);
    }
  });

  t.test('the internal listener passes /metrics, the admin routes and the console', async (t) => {
    await ready(internalPort);
    seen.length = 0;
    t.equal((await request(internalPort, '/metrics')).status, 200);
    t.equal((await request(internalPort, '/api/admin/keys', { 'x-request-id': 'admin-1' })).status, 200);
    t.equal((await request(internalPort, '/admin', { 'x-request-id': 'console-1' })).status, 200);
    t.same(
      seen.map((s) => [s.url, s.headers['x-request-id']]),
      [
        ['/metrics', seen[0]?.headers['x-request-id']],
        ['/api/admin/keys', 'admin-1'],
        ['/admin', 'console-1'],
      ],
    );
  });
}
