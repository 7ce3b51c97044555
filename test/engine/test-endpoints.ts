import fs from 'node:fs';
import path from 'node:path';
import { tempDataDir } from '../support/serve.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import type { UpstreamSpec } from '../../engine/catalog/upstreams.js';

/**
 * A small registry for engine tests, written as real manifest files: a POST
 * endpoint (which also answers GET), a POST endpoint with a secret param (POST only), a slow upstream endpoint with a short timeout and a concurrency gate,
 * a cached endpoint, one whose mapping fails at run time, one that is unavailable, and two lists
 * that the envelope also carries where clients read them (resultAlso).
 */
const MANIFESTS: Record<string, string> = {
  'echo.yaml': `
path: /api/test/echo
method: POST
category: tools
summary: Echo a word from a data set
body: [json]
limits: { bodyBytes: 200 }
params:
  word: { required: true, schema: { type: string, enum: [alpha, beta] }, description: which word }
  count: { schema: { type: integer, minimum: 1, maximum: 5, default: 1 }, description: how many }
adapter: { kind: dataset, config: { file: data/words.json, filter: { word: word } } }
examples: [{ params: { word: alpha }, expect: {} }]
`,
  'slow.yaml': `
path: /api/test/slow
category: search
summary: Calls a slow upstream
params:
  q: { required: true, aliases: [query], schema: { type: string }, description: terms }
adapter: { kind: http, config: { providers: [{ upstream: local, path: /slow, query: { q: "\${params.q}" }, result: items }] } }
limits: { timeoutMs: 400, concurrency: 1, queue: 0 }
examples: [{ params: { q: x }, expect: {} }]
`,
  'cached.yaml': `
path: /api/test/cached
aliases: [/api/test/cached-alias]
category: search
summary: Cached upstream call
params:
  q: { required: true, schema: { type: string }, description: terms }
adapter: { kind: http, config: { providers: [{ upstream: local, path: /count, result: count }] } }
limits: { cacheTtl: 60 }
examples: [{ params: { q: x }, expect: {} }]
`,
  'broken.yaml': `
path: /api/test/broken
category: search
summary: Mapping of local data that fails at run time (a bug, so 500)
adapter: { kind: dataset, config: { file: data/words.json, result: "abs(word)" } }
examples: [{ params: {}, expect: {} }]
`,
  'needs-env.yaml': `
path: /api/test/needs-env
category: tools
summary: Needs a variable that is not set
requires: { env: [SOME_UNSET_VARIABLE], bin: [definitely-not-a-binary-xyz] }
adapter: { kind: dataset, config: { file: data/words.json } }
examples: [{ params: {}, expect: {} }]
`,
  'secret.yaml': `
path: /api/test/secret
method: POST
category: checker
summary: Takes a secret, so only in a POST body
body: [json]
params:
  word: { required: true, secret: true, schema: { type: string }, description: kept out of URLs }
adapter: { kind: dataset, config: { file: data/words.json, filter: { word: word } } }
examples: [{ params: { word: alpha }, expect: {} }]
`,
  'listed.yaml': `
path: /api/test/listed
category: search
summary: A list whose clients read it as results, and another as results.data
resultAlso: results
adapter: { kind: dataset, config: { file: data/words.json } }
examples: [{ params: {}, expect: {} }]
`,
  'listed-data.yaml': `
path: /api/test/listed-data
category: search
summary: A list whose clients read it as results.data, a word at the top and as message
resultAlso: [results.data, word=word, message=word, absent=nothing]
adapter: { kind: dataset, config: { file: data/words.json } }
examples: [{ params: {}, expect: {} }]
`,
  'dialect.yaml': `
path: /api/test/dialect
category: fun
summary: The word asked for; the genre's newest hosts' clients get beta
params:
  word: { schema: { type: string, enum: [alpha, beta], default: alpha }, description: which word }
dialects: { gifted: { word: beta } }
adapter: { kind: dataset, config: { file: data/words.json, filter: { word: word } } }
examples: [{ params: {}, expect: {} }]
`,
  'open.yaml': `
path: /api/test/open
category: tempgen
summary: Public, no key
public: true
adapter: { kind: dataset, config: { file: data/words.json } }
examples: [{ params: {}, expect: {} }]
`,
  'item.yaml': `
path: /api/test/{{name}}
category: fun
summary: Family member {{name}}
family: { items: [{ name: one, n: 1 }, { name: two, n: 2 }, { name: three, n: 3 }] }
params:
  text: { required: true, schema: { type: string, maxLength: 20 }, description: shared schema }
adapter: { kind: dataset, config: { file: data/words.json, result: "\`{{n}}\`" } }
examples: [{ params: { text: hi }, expect: {} }]
`,
};

export function writeTestEndpoints(): { dir: string; upstream: (base: string) => UpstreamSpec[] } {
  const dir = tempDataDir('manifold-endpoints-');
  fs.mkdirSync(path.join(dir, 'data'));
  fs.writeFileSync(
    path.join(dir, 'data', 'words.json'),
    JSON.stringify([
      { word: 'alpha', n: 1 },
      { word: 'beta', n: 2 },
    ]),
  );
  for (const [name, text] of Object.entries(MANIFESTS)) fs.writeFileSync(path.join(dir, name), text);
  return { dir, upstream: (base) => [{ name: 'local', description: 'test upstream', baseUrl: { env: 'LOCAL_URL', default: base } }] };
}

export const testEndpoints = () => {
  const { dir, upstream } = writeTestEndpoints();
  return { endpoints: loadEndpoints(dir), upstream };
};
