import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Fixture } from '../../engine/core/manifest-types.js';
import { expandFixtureUrls } from './fixture-urls.js';

/**
 * The local upstream of the conformance harness: one HTTP server standing in for
 * every upstream (each under /<upstream-name>/), answering with the fixture files of
 * the example being run. It records which fixtures were hit, so an example whose
 * endpoint never called its upstream fails. Under /_fixtures/ it also serves the files
 * of the example's fixtures/ folder as they are, the targets of `${fixtures}/<file>`
 * URLs in example params (./fixture-urls.ts); upstream names cannot start with `_`.
 */
export interface FixtureUpstream {
  base(upstream: string): string;
  /** What `${fixtures}` in example params stands for. */
  filesBase: string;
  /** Serve these fixtures (paths relative to dir) until the next call. */
  use(fixtures: Fixture[], dir: string): void;
  /** Since `use`: indexes of fixtures requested, requests that matched none, and fixture files served under /_fixtures/. */
  hits(): { used: Set<number>; unmatched: string[]; files: Set<string> };
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.xml': 'application/xml',
  '.sse': 'text/event-stream',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
};

const FILES_PREFIX = '/_fixtures/';

export async function startFixtureUpstream(): Promise<FixtureUpstream> {
  let current: { fixtures: Fixture[]; dir: string } = { fixtures: [], dir: '' };
  let used = new Set<number>();
  let unmatched: string[] = [];
  let files = new Set<string>();

  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://fixture');
    if (url.pathname.startsWith(FILES_PREFIX)) {
      const name = decodeURIComponent(url.pathname.slice(FILES_PREFIX.length));
      const root = path.join(current.dir, 'fixtures');
      const file = path.resolve(root, name);
      const servable = (req.method === 'GET' || req.method === 'HEAD') && file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile();
      if (!servable) {
        unmatched.push(`${req.method} ${url.pathname}`);
        res.writeHead(404).end();
        return;
      }
      files.add(name);
      const payload = fs.readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': payload.length });
      res.end(req.method === 'HEAD' ? undefined : payload);
      return;
    }
    const [, upstream, ...rest] = url.pathname.split('/');
    const rel = `/${rest.join('/')}`;
    const index = current.fixtures.findIndex(
      (f) =>
        f.upstream === upstream && (f.method ?? 'GET').toUpperCase() === req.method && f.path === rel && queryMatches(f, url) && subset(f.body ?? {}, body),
    );
    if (index === -1) {
      unmatched.push(`${req.method} ${url.pathname}${url.search}`);
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no fixture matches this request"}');
      return;
    }
    used.add(index);
    const fixture = current.fixtures[index];
    if (fixture.delayMs) await new Promise((r) => setTimeout(r, fixture.delayMs));
    // an inline answer may link to fixture files (an image the upstream hands out): `${fixtures}/<file>` as in example params
    const payload = fixture.file
      ? fs.readFileSync(path.resolve(current.dir, fixture.file))
      : Buffer.from(JSON.stringify(expandFixtureUrls(fixture.json ?? null, filesBase)));
    const type = fixture.file ? (TYPES[path.extname(fixture.file)] ?? 'application/octet-stream') : 'application/json';
    if (!res.destroyed) res.writeHead(fixture.status ?? 200, { 'content-type': type, ...fixture.headers }).end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const filesBase = `http://127.0.0.1:${port}${FILES_PREFIX.slice(0, -1)}`;

  return {
    base: (upstream) => `http://127.0.0.1:${port}/${upstream}`,
    filesBase,
    use(fixtures, dir) {
      current = { fixtures, dir };
      used = new Set();
      unmatched = [];
      files = new Set();
    },
    hits: () => ({ used, unmatched, files }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return Object.fromEntries(new URLSearchParams(text));
  }
}

/**
 * The fixture's query values are there (a `null` value: that name is absent), and each
 * of its `flags` is there bare, without `=` — URLSearchParams reads `a` and `a=` alike.
 */
function queryMatches(fixture: Fixture, url: URL): boolean {
  const raw = url.search.slice(1).split('&');
  return (
    Object.entries(fixture.query ?? {}).every(([k, v]) => (v === null ? !url.searchParams.has(k) : url.searchParams.get(k) === String(v))) &&
    (fixture.flags ?? []).every((flag) => raw.includes(encodeURIComponent(flag)))
  );
}

/** Does `actual` carry every property of `expected` (deeply)? */
function subset(expected: unknown, actual: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return expected === actual;
  if (actual === null || typeof actual !== 'object') return false;
  return Object.entries(expected).every(([k, v]) => subset(v, (actual as Record<string, unknown>)[k]));
}
