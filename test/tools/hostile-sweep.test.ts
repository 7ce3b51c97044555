/**
 * No input reaches 500 (#22 item 8): every code endpoint (a handler module of its own)
 * called with hostile values, a few per parameter rather than their cross product — NUL
 * and other control characters, a string at and one past its maxLength, unicode classes
 * (emoji, right-to-left, combining marks), a wrong type, an empty value, the required ones
 * left out — answers anything but 500. Upstreams point nowhere, so what needs one answers
 * 502/503/504; user URLs are blocked by the SSRF guard, as on a public host.
 */
import path from 'node:path';
import t from 'tap';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import type { Endpoint } from '../../engine/core/manifest-types.js';
import { loadUpstreamSpecs } from '../../engine/catalog/upstreams.js';
import { callEndpoint } from '../support/call.js';
import { serve, TEST_KEY } from '../support/serve.js';

const endpoints = loadEndpoints(ENDPOINTS_DIR).filter((e) => e.adapter.kind === 'code');
const upstreamSpecs = loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams'));
// every upstream at an address that refuses at once (port 9, discard: closed here); no private user URLs
const nowhere = Object.fromEntries(upstreamSpecs.flatMap((u) => (u.baseUrl ? [[u.baseUrl.env, 'http://127.0.0.1:9']] : [])));
const served = await serve(
  { ...nowhere, DNS_SERVERS: '127.0.0.1:9', WHOIS_SERVER: '127.0.0.1:9', ALLOW_PRIVATE_URLS: undefined, CPU_THREADS: '1' },
  { endpoints, upstreamSpecs },
);
t.teardown(() => served.close());

type Params = Record<string, unknown>;
type Spec = Endpoint['params'][string];

/** A valid-looking value for each param: its example, else its default, else something of its type. */
function baseline(endpoint: Endpoint): Params {
  const out: Params = {};
  for (const [name, spec] of Object.entries(endpoint.params)) {
    if (spec.in === 'file') continue;
    const schema = (spec.schema ?? {}) as Record<string, any>;
    const value =
      spec.example ??
      schema.default ??
      schema.enum?.[0] ??
      (schema.type === 'integer' || schema.type === 'number' ? (schema.minimum ?? 1) : schema.type === 'boolean' ? false : 'hello');
    if (spec.required || spec.example !== undefined) out[name] = value;
  }
  return out;
}

/** The hostile values tried for one param. */
function hostile(spec: Spec): unknown[] {
  const schema = (spec.schema ?? {}) as Record<string, any>;
  if (schema.type && schema.type !== 'string') return ['not-a-number', -1e300];
  const values: unknown[] = [
    'a\u0000b',
    '\u0001\u001b[31m\u007f',
    '😀👍🏽👨‍👩‍👧',
    '\u202Eabc\u05D0\u0627',
    `Z${'\u0301\u0316\u0353'.repeat(40)}`,
    '',
    { nested: ['x'] },
  ];
  // one past the maximum always (a cheap 400); at it only where that is a small text, to keep the sweep's time modest
  if (typeof schema.maxLength === 'number') values.push('x'.repeat(Math.min(schema.maxLength + 1, 300_000)));
  if (typeof schema.maxLength === 'number' && schema.maxLength <= 2000) values.push('x'.repeat(schema.maxLength));
  return values;
}

const cases: { endpoint: Endpoint; params: Params; what: string }[] = [];
for (const endpoint of endpoints) {
  const base = baseline(endpoint);
  cases.push({ endpoint, params: {}, what: 'nothing' });
  for (const [name, spec] of Object.entries(endpoint.params)) {
    if (spec.in === 'file' || spec.in === 'path') continue;
    for (const value of hostile(spec)) cases.push({ endpoint, params: { ...base, [name]: value }, what: `${name}=${JSON.stringify(value).slice(0, 40)}` });
  }
}

t.test(`${cases.length} hostile calls of ${endpoints.length} code endpoints: none answers 500`, async (t) => {
  const found: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const { endpoint, params, what } = cases[next++]!;
      const answer = await callEndpoint(served.url, endpoint, params, { key: TEST_KEY }).catch((err: Error) => ({ status: 0, json: { message: err.message } }));
      if (answer.status >= 500 && answer.status !== 502 && answer.status !== 503 && answer.status !== 504)
        found.push(`${endpoint.method} ${endpoint.path} ${what}: ${answer.status} ${JSON.stringify(answer.json ?? {}).slice(0, 120)}`);
      if (answer.status === 0) found.push(`${endpoint.method} ${endpoint.path} ${what}: no answer (${(answer.json as { message: string }).message})`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  t.same(found, [], 'no 500, no dropped connection');
});
