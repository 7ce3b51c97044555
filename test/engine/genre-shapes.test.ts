/** resultAlso and dialects in a manifest: what the loader accepts and refuses (what they answer: contract.test.ts). */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { tempDataDir } from '../support/serve.js';

function load(keys: string) {
  const dir = tempDataDir('manifold-result-also-');
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'data'));
  fs.writeFileSync(path.join(dir, 'data', 'words.json'), '[{"word":"alpha"}]');
  fs.writeFileSync(
    path.join(dir, 'listed.yaml'),
    `path: /api/test/listed
category: search
summary: A list
params:
  word: { schema: { type: string }, description: a word }
${keys}
adapter: { kind: dataset, config: { file: data/words.json } }
resultSchema: { type: object }
examples: [{ params: {}, expect: {} }]
`,
  );
  return loadEndpoints(dir);
}

t.test('entries are normalised: the whole result, or one field of it, at a key path', async (t) => {
  t.same(load('resultAlso: [results.data, lyrics=song.lyrics, message]')[0].resultAlso, [
    { at: ['results', 'data'], from: [] },
    { at: ['lyrics'], from: ['song', 'lyrics'] },
    { at: ['message'], from: [] },
  ]);
});

t.test("the envelope's own keys and two entries under one key are refused", async (t) => {
  for (const key of ['result', 'status', 'success.x', 'creator=word', 'error', 'details']) t.throws(() => load(`resultAlso: ${key}`), /resultAlso/, key);
  t.throws(() => load('resultAlso: [results, results.data]'), /two entries under results/);
});

t.test("dialects name the dialects of endpoints/data/hosts.yaml and the endpoint's own parameters", async (t) => {
  t.same(load('dialects: { gifted: { word: beta } }')[0].dialects, { gifted: { word: 'beta' } });
  t.throws(() => load('dialects: { nosuch: { word: beta } }'), /dialects\.nosuch.*no such dialect/);
  t.throws(() => load('dialects: { gifted: { other: 1 } }'), /dialects\.gifted\.other.*not a parameter/);
  t.throws(() => load('dialects: { gifted: { stream: true } }'), /not a parameter/, 'stream only on a streamable endpoint');
});
