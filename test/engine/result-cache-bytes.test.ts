/**
 * The result cache is bounded by bytes, keys included (engine/platform/cache.ts): many distinct long
 * inputs (a 6,000-character text in a cached tool's parameters) keep the in-process cache
 * within CACHE_MAX_BYTES, and the heap with it; a value over CACHE_MAX_ENTRY_BYTES is
 * answered but not kept.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import t from 'tap';
import { createResultCache } from '../../engine/platform/cache.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heapUsed = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

t.test('20,000 distinct 6,000-character keys stay within CACHE_MAX_BYTES, and so does the heap', async (t) => {
  const maxBytes = 8 * 1024 * 1024;
  const cache = createResultCache({ cache: { maxBytes, maxEntryBytes: 1024 * 1024 } });
  t.teardown(() => cache.close());
  const before = heapUsed();
  for (let i = 0; i < 20_000; i++) {
    // the key the pipeline builds carries the whole text; each distinct (and two bytes a character)
    const text = `${i} ${'ж'.repeat(6000)}`;
    await cache.wrap(`GET /api/tools/wordcount?text=${text}`, 600, async () => ({ words: 2, characters: text.length }));
  }
  const grown = heapUsed() - before;
  t.ok(cache.bytes! <= maxBytes, `counted ${cache.bytes} bytes, limit ${maxBytes}`);
  // before, keys were not counted: 10,000 entries of 12 KB keys stayed (~120 MB)
  t.ok(grown < 3 * maxBytes, `the heap grew ${Math.round(grown / 1024 / 1024)} MiB (limit ${maxBytes / 1024 / 1024} MiB)`);
  // the most recent entries are still served from the cache
  const last = `19999 ${'ж'.repeat(6000)}`;
  let computed = false;
  await cache.wrap(`GET /api/tools/wordcount?text=${last}`, 600, async () => {
    computed = true;
    return {};
  });
  t.notOk(computed, 'the latest entry is a hit');
});

t.test('a value over CACHE_MAX_ENTRY_BYTES is answered, not kept', async (t) => {
  const cache = createResultCache({ cache: { maxBytes: 8 * 1024 * 1024, maxEntryBytes: 64 * 1024 } });
  t.teardown(() => cache.close());
  let runs = 0;
  const big = async () => {
    runs++;
    return { text: 'x'.repeat(100_000) };
  };
  t.equal((await cache.wrap('big', 600, big)).text.length, 100_000);
  t.equal((await cache.wrap('big', 600, big)).text.length, 100_000);
  t.equal(runs, 2, 'computed each time');
  t.equal(cache.bytes, 0);
  let small = 0;
  for (let i = 0; i < 2; i++) await cache.wrap('small', 600, async () => ({ n: ++small }));
  t.equal(small, 1, 'a small value is kept');
});
