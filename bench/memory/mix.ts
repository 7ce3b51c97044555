/**
 * The request mix of issue #21, built from a compiled registry (build/registry.json):
 * 500 quotes, 310 code-pool tools, 150 text and 40 photo effects (each a different
 * template, so none is answered from the render cache), 30 OCR calls, then one neural
 * upscale and one `remini`. Each step is a list of requests; run.ts sends them with a
 * few in flight, as a bot's users would, and reads the server's memory after each step.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface MixRequest {
  method: 'GET' | 'POST';
  path: string;
  params: Record<string, unknown>;
}

export interface Step {
  name: string;
  requests: MixRequest[];
  /** Requests in flight at once. */
  concurrency: number;
}

interface Example {
  params?: Record<string, unknown>;
  expect?: { status?: number };
  env?: Record<string, string>;
}

interface CompiledEndpoint {
  method: string;
  path: string;
  cost?: string;
  adapter: { kind: string; config?: { template?: { input: string } } };
  examples?: Example[];
}

/** A request of the mix as fetch sends it to the server at `url`: GET params in the query, POST params as JSON. */
export function fetchArgs(url: string, r: MixRequest, key: string): [string, RequestInit] {
  const headers: Record<string, string> = { 'x-api-key': key };
  if (r.method === 'POST')
    return [`${url}${r.path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(r.params) }];
  const query = new URLSearchParams(Object.entries(r.params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return [`${url}${r.path}?${query}`, { method: 'GET', headers }];
}

/** Where the bench's files are served: `fixture(name)` is their URL. */
export interface Fixtures {
  url(name: string): string;
  /** The endpoints' own fixture directories: `${fixtures}/x` in an example names a file there. */
  category(endpointPath: string): string;
}

/** Every `n`-th of `items`, `count` in all, spread over the whole list. */
const spread = <T>(items: T[], count: number): T[] => {
  if (items.length < count) throw new Error(`the mix needs ${count} of a kind the registry has ${items.length} of`);
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]);
};

const cycle = <T>(items: T[], count: number): T[] => Array.from({ length: count }, (_, i) => items[i % items.length]);

/** `${fixtures}/name` in an example's params, pointed at the bench's file server. */
function withFixtures(value: unknown, base: string): unknown {
  if (typeof value === 'string') return value.replaceAll('${fixtures}', base);
  if (Array.isArray(value)) return value.map((v) => withFixtures(v, base));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withFixtures(v, base)]));
  return value;
}

const request = (e: CompiledEndpoint, params: Record<string, unknown>): MixRequest => ({ method: e.method === 'POST' ? 'POST' : 'GET', path: e.path, params });

export function loadMix(root: string, fixtures: Fixtures): Step[] {
  const { endpoints } = JSON.parse(fs.readFileSync(path.join(root, 'build', 'registry.json'), 'utf8')) as { endpoints: CompiledEndpoint[] };
  const find = (p: string) => {
    const e = endpoints.find((x) => x.path === p);
    if (!e) throw new Error(`${p} is not in the registry`);
    return e;
  };
  // the code pool: every example of a `cost: cpu` endpoint that answers 200 without settings of its own
  const code = endpoints
    .filter((e) => e.cost === 'cpu')
    .flatMap((e) =>
      (e.examples ?? [])
        .filter((x) => (x.expect?.status ?? 200) === 200 && !x.env)
        .map((x) => request(e, withFixtures(x.params ?? {}, fixtures.category(e.path)) as Record<string, unknown>)),
    );
  const effects = endpoints.filter((e) => e.adapter.kind === 'effect');
  const input = (e: CompiledEndpoint) => e.adapter.config?.template?.input ?? '';
  // the size each effect is asked at is its default (1024 px wide), as bots call them
  const text = spread(
    effects.filter((e) => input(e).startsWith('text')),
    150,
  ).map((e) => request(e, input(e) === 'text2' ? { text1: 'Manifold', text2: 'Effects' } : { text: 'Manifold' }));
  const photo = spread(
    effects.filter((e) => input(e).startsWith('image')),
    40,
  ).map((e) => request(e, input(e) === 'image-text' ? { url: fixtures.url('photo.jpg'), text: 'Manifold' } : { url: fixtures.url('photo.jpg') }));
  const ocr = find('/api/tools/ocr');
  const upscaler = find('/api/tools/imageupscaler');
  const remini = find('/api/tools/remini');
  return [
    { name: '500 quotes', requests: cycle([request(find('/api/fun/quote'), {})], 500), concurrency: 8 },
    { name: `310 code tools (${new Set(code.map((r) => r.path)).size} endpoints)`, requests: cycle(code, 310), concurrency: 4 },
    { name: '150 text effects', requests: text, concurrency: 4 },
    { name: '40 photo effects', requests: photo, concurrency: 4 },
    { name: '30 OCR', requests: cycle([request(ocr, { url: `${fixtures.category(ocr.path)}/ocr-note.jpg` })], 30), concurrency: 2 },
    {
      name: 'one upscale (256×256, esrgan-slim-4x)',
      requests: [request(upscaler, { url: fixtures.url('upscale.jpg'), model: 'esrgan-slim-4x' })],
      concurrency: 1,
    },
    { name: 'one remini (256×256)', requests: [request(remini, { url: fixtures.url('upscale.jpg') })], concurrency: 1 },
  ];
}
