/**
 * Drop-in parity with the genre's clients, from the data in ./peer-paths.yaml:
 * 1. every R row's fields (what strict clients read) are in that endpoint's answer to
 *    its offline examples, run against the fixture servers as the conformance harness
 *    does; an endpoint none of whose examples succeeds offline (YouTube, an AI provider)
 *    must at least declare the fields in its resultSchema;
 * 2. every client path answers GET, as clients call them (no 405); how many of the
 *    client paths answer (anything but 404) on the full registry, the
 *    policy exclusions (endpoints/data/not-served.yaml) left out, printed with the list
 *    of missing paths. Missing paths are not failures: they are being added.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { ENDPOINTS_DIR } from '../../engine/app.js';
import { loadEndpoints } from '../../engine/manifest/load.js';
import { loadUpstreamSpecs } from '../../engine/upstreams.js';
import { loadNotServed } from '../../engine/discovery/not-served.js';
import type { Endpoint, Example } from '../../engine/manifest/types.js';
import { startFixtureEnvironment } from '../support/fixture-environment.js';
import { expandFixtureUrls } from '../support/fixture-urls.js';
import { callEndpoint, type Answer } from '../support/call.js';
import { TEST_KEY } from '../support/serve.js';

interface PeerPath {
  path: string;
  rel: string;
  result?: 'string' | 'array' | 'object' | 'bytes';
  fields?: string[];
  /** Fields Manifold does not return yet, each with the reason (printed, not failed). */
  gaps?: Record<string, string>;
}

const rows = parse(fs.readFileSync(new URL('./peer-paths.yaml', import.meta.url), 'utf8')) as PeerPath[];
const endpoints = loadEndpoints(ENDPOINTS_DIR);
const upstreamSpecs = loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams'));
const excluded = new Set(loadNotServed().map((e) => e.path.toLowerCase()));

const byPath = new Map<string, Endpoint>();
for (const e of endpoints) for (const p of [e.path, ...e.aliases]) byPath.set(p.toLowerCase(), e);

// the local stand-ins for every upstream, DNS and WHOIS, as in test/conformance.test.ts
const environment = await startFixtureEnvironment(endpoints, upstreamSpecs);
const { upstream, dns, whois } = environment;
const engineWith = environment.engineFor;
t.teardown(() => environment.close());

const succeeds = (example: Example) => (example.expect.status ?? 200) === 200 && !example.expect.error;

async function answerTo(endpoint: Endpoint, example: Example): Promise<Answer> {
  for (const server of [upstream, dns, whois]) server.use(example.fixtures ?? [], endpoint.dir);
  const params = expandFixtureUrls(example.params, upstream.filesBase);
  return callEndpoint((await engineWith(example.env)).url, endpoint, params, { key: endpoint.public ? undefined : TEST_KEY, files: example.files });
}

/** The values a field path reaches in a result (`[]` = every item), or undefined where it breaks off. */
function reach(value: unknown, steps: string[]): unknown[] {
  if (steps.length === 0) return [value];
  const [step, ...rest] = steps;
  // an empty list has no item lacking the field; a non-list has no items at all
  if (step === '[]') return Array.isArray(value) ? value.flatMap((item) => reach(item, rest)) : [undefined];
  const next = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
  return next === undefined ? [undefined] : reach(next, rest);
}
const stepsOf = (field: string) => field.split(/\.|(?=\[\])|(?<=\[\])\.?/).filter(Boolean);

/** Is the field (`a|b`: either) in the result, in every item it goes through? */
const present = (result: unknown, field: string) => field.split('|').some((one) => reach(result, stepsOf(one)).every((v) => v !== undefined));

/** Is the field declared by the JSON schema (properties, items, anyOf branches)? */
function declared(schema: any, steps: string[]): boolean {
  if (!schema || typeof schema !== 'object') return false;
  if (steps.length === 0) return true;
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (branches.some((b: unknown) => declared(b, steps))) return true;
  const [step, ...rest] = steps;
  if (step === '[]') return declared(schema.items, rest);
  return declared(schema.properties?.[step], rest) || (Array.isArray(schema.required) && schema.required.includes(step) && rest.length === 0);
}

const typeOk = (result: unknown, type: PeerPath['result']) =>
  type === 'string'
    ? typeof result === 'string' && result.length > 0
    : type === 'array'
      ? Array.isArray(result)
      : type === 'object'
        ? result !== null && typeof result === 'object' && !Array.isArray(result)
        : true;

/** The JSON type a row's fields imply for `result`: a list when they go through its items. */
const impliedType = (row: PeerPath) => row.result ?? (row.fields?.some((f) => f.startsWith('[]')) ? 'array' : 'object');

const strict = rows.filter((r) => r.rel === 'R' && !excluded.has(r.path.toLowerCase()));
const absent: string[] = [];
const schemaOnly: string[] = [];
const closedGaps: string[] = [];

for (const row of strict) {
  const endpoint = byPath.get(row.path.toLowerCase());
  if (!endpoint) {
    absent.push(row.path);
    continue;
  }
  await t.test(
    `${row.path}: ${row.result ? `result is ${row.result}` : ''}${row.result && row.fields ? ', ' : ''}${row.fields?.join(', ') ?? ''}`,
    async (t) => {
      const runs = endpoint.examples.filter(succeeds);
      let checked = 0;
      const gaps = row.gaps ?? {};
      for (const example of runs) {
        const answer = await answerTo(endpoint, example);
        if (answer.status !== 200) continue; // the conformance harness reports failing examples
        const name = `example ${JSON.stringify(example.name ?? '')}`;
        const isJson = (answer.headers.get('content-type') ?? '').includes('json');
        if (row.result === 'bytes') {
          // the client's plain call: hosted=true asks for a link instead, and on a streamable endpoint only stream=true gives bytes
          if ('hosted' in example.params || (endpoint.response === 'streamable' && 'stream' in example.params)) continue;
          checked++;
          t.notOk(isJson, `${name}: the answer is the bytes, not JSON`);
          continue;
        }
        // other forms of the same endpoint (stream=true bytes or events, fancy's single style) answer other clients
        const result = answer.json?.result;
        if (!isJson || !typeOk(result, impliedType(row))) continue;
        checked++;
        for (const field of row.fields ?? []) {
          if (gaps[field]) {
            if (present(result, field)) closedGaps.push(`${row.path} ${field}`);
            continue;
          }
          t.ok(present(result, field), `${name}: result has ${field}`);
        }
      }
      if (checked > 0) return;
      // no example succeeds offline (the service is out of reach here): the answer's schema must promise the fields
      schemaOnly.push(row.path);
      const schema = endpoint.resultSchema as { type?: string | string[] } | undefined;
      const types = [schema?.type ?? []].flat();
      if (row.result && row.result !== 'bytes') t.ok(types.includes(row.result), `resultSchema says result is ${row.result}`);
      if (row.result === 'bytes') t.equal(endpoint.response, 'binary', 'answers with bytes');
      for (const field of row.fields ?? []) {
        if (!gaps[field])
          t.ok(
            field.split('|').some((f) => declared(schema, stepsOf(f))),
            `resultSchema declares ${field}`,
          );
      }
    },
  );
}

t.test('coverage of the client paths', async (t) => {
  const served = await engineWith();
  const candidates = rows.filter((r) => !excluded.has(r.path.toLowerCase()));
  const missing: string[] = [];
  const notGet: string[] = [];
  let unavailable = 0;
  for (const row of candidates) {
    const res = await fetch(`${served.url}${row.path}?apikey=${TEST_KEY}`);
    await res.arrayBuffer();
    if (res.status === 404 && !byPath.has(row.path.toLowerCase())) missing.push(row.path);
    else if (res.status === 405) notGet.push(row.path);
    else if (res.status === 503) unavailable++;
  }
  const answered = candidates.length - missing.length;
  const line = `parity: ${answered} of ${candidates.length} client paths answer (${((100 * answered) / candidates.length).toFixed(1)}%; ${rows.length - candidates.length} excluded by policy; ${unavailable} of them 503 until configured here)`;
  console.log(`# ${line}`);
  console.log(`# parity: missing ${missing.length}: ${missing.join(' ')}`);
  console.log(`# parity: R rows: ${strict.length}; without an endpoint yet ${absent.length}: ${absent.join(' ')}`);
  console.log(`# parity: R rows checked against resultSchema only (no offline success example): ${schemaOnly.join(' ') || 'none'}`);
  const gaps = strict.flatMap((r) => Object.entries(r.gaps ?? {}).map(([field, why]) => `${r.path} ${field} (${why})`));
  console.log(`# parity: R fields not returned yet, ${gaps.length}: ${gaps.join('; ') || 'none'}`);
  if (closedGaps.length) console.log(`# parity: now returned, drop these gaps from peer-paths.yaml: ${closedGaps.join('; ')}`);
  t.comment(line);
  t.ok(answered > 0, 'some client paths answer');
  // the reference saw every client call made with GET and query parameters
  t.same(notGet, [], 'every client path answers GET (none is 405)');
  t.same(
    rows.filter((r) => excluded.has(r.path.toLowerCase()) && byPath.has(r.path.toLowerCase())).map((r) => r.path),
    [],
    'no excluded path is served',
  );
});
