/** resultAlso in a manifest: what the loader accepts and refuses (the envelope it makes: contract.test.ts). */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { loadEndpoints } from '../../engine/manifest/load.js';
import { tempDataDir } from '../support/serve.js';

function load(resultAlso: string) {
  const dir = tempDataDir('manifold-result-also-');
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'data'));
  fs.writeFileSync(path.join(dir, 'data', 'words.json'), '[{"word":"alpha"}]');
  fs.writeFileSync(
    path.join(dir, 'listed.yaml'),
    `path: /api/test/listed
category: search
summary: A list
resultAlso: ${resultAlso}
adapter: { kind: dataset, config: { file: data/words.json } }
resultSchema: { type: object }
examples: [{ params: {}, expect: {} }]
`,
  );
  return loadEndpoints(dir);
}

t.test('entries are normalised: the whole result, or one field of it, at a key path', async (t) => {
  t.same(load('[results.data, lyrics=song.lyrics, message]')[0].resultAlso, [
    { at: ['results', 'data'], from: [] },
    { at: ['lyrics'], from: ['song', 'lyrics'] },
    { at: ['message'], from: [] },
  ]);
});

t.test("the envelope's own keys and two entries under one key are refused", async (t) => {
  for (const key of ['result', 'status', 'success.x', 'creator=word', 'error', 'details']) t.throws(() => load(key), /resultAlso/, key);
  t.throws(() => load('[results, results.data]'), /two entries under results/);
});
