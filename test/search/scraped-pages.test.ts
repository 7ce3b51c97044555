/**
 * Scraped pages are read off the event loop (#22 item 7): a scraper fetches on the main
 * thread and hands the page to its handler's pure `extract`, which parses it in the code
 * pool. A page nested too deep is a 502 naming the upstream, carried back from the worker;
 * while a large page is being read the main thread keeps running (it sees the pool busy).
 */
import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { EngineScope } from '../../engine/platform/scope.js';
import { ApiError } from '../../engine/core/errors.js';
import { closeCpuPool, cpuPool } from '../../engine/kinds/handlers/cpu-pool.js';
import happymod from '../../engine/kinds/handlers/search/happymod.js';
import type { HandlerInput } from '../../engine/contract/handler.js';

const config = loadConfig({ CPU_THREADS: '1' });
const scope = new EngineScope();
t.teardown(() => closeCpuPool({ scope }));

/** Run the happymod handler on a page its upstream "served". */
const search = async (html: string): Promise<unknown> =>
  happymod({
    params: { query: 'minecraft', limit: 5 },
    options: {},
    call: { signal: new AbortController().signal },
    setup: { config, scope, upstreams: { text: async () => html } },
  } as unknown as HandlerInput<{ query: string; limit: number }>);

const box = (i: number) =>
  `<div class="pdt-app-box"><a href="/app-${i}" title="App ${i} Mod Apk 1.${i} [Unlocked]"><img data-original="/i${i}.png"></a><h3 class="pdt-app-h3"><a href="/app-${i}">App ${i}</a></h3></div>`;

t.test('the page is read in the code pool, and the answer is the same', async (t) => {
  const apps = (await search(`<html><body>${box(1)}${box(2)}</body></html>`)) as { title: string; url: string; version: string }[];
  t.same(
    apps.map((a) => [a.title, a.url, a.version]),
    [
      ['App 1', 'https://happymod.com/app-1', '1.1'],
      ['App 2', 'https://happymod.com/app-2', '1.2'],
    ],
  );
});

t.test('a page nested too deep is a 502 naming the upstream, from the worker', async (t) => {
  const error = await search('<div>'.repeat(100_000)).catch((e: unknown) => e);
  t.ok(error instanceof ApiError, 'an ApiError, its status and code kept across the thread boundary');
  t.match(error, { status: 502, code: 'upstream_error', message: /happymod.*nests elements more than 256 deep/ });
});

t.test('while a large page is read, the main thread runs and sees the pool at work', async (t) => {
  const page = `<html><body>${Array.from({ length: 3000 }, (_, i) => box(i)).join('')}</body></html>`; // ~0.5 MB
  let done = false;
  const answer = search(page).finally(() => (done = true));
  let sawBusy = false;
  // each turn of this loop is the event loop turning: on the old code the parse held it
  while (!done) {
    if (cpuPool({ config, scope }).stats.active > 0) sawBusy = true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.ok(sawBusy, 'the main thread saw a worker reading the page');
  t.equal(((await answer) as unknown[]).length, 5);
});
