import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ROOT } from '../../engine/core/root.js';
import type { FileOutput } from '../../engine/contract/file-output.js';
import { runPoolTask, type PoolTaskInput, type PoolTaskName, type PoolTaskOutput } from '../../engine/kinds/handlers/pool-tasks.js';
import { loadConfig } from '../../engine/platform/config.js';
import { EngineScope } from '../../engine/platform/scope.js';

/**
 * The code pool's task table (engine/kinds/handlers/pool-tasks.ts): a task's input and output
 * types are its export's own, so a call site cannot name a task that is not there, pass it the
 * wrong input or misread its answer. The @ts-expect-error lines are the test: `tsc --noEmit`
 * (npm run typecheck, CI) fails when one of them stops being an error. The run at the end
 * checks that a name from the table is one the pool's workers find.
 */

/** Compile-time equality: true only when A and B are the same type. */
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const same = <A, B>(equal: Equal<A, B>) => equal;

// the table holds the eight tasks the handlers run by name, and no handler's default export
same<
  PoolTaskName,
  | 'search/apkmirror#extract'
  | 'search/chord#readStore'
  | 'search/happymod#extract'
  | 'search/playstore#extract'
  | 'search/tiktokstalk#extract'
  | 'search/wachannel#extract'
  | 'tools/createqr#render'
  | 'tools/readqr#decode'
>(true);
same<PoolTaskInput<'search/wachannel#extract'>, { html: string; code: string }>(true);
same<PoolTaskInput<'tools/readqr#decode'>, { image: Uint8Array }>(true);
// the answer is the export's: a drawn QR code comes back as a FileOutput, not unknown
same<PoolTaskOutput<'tools/createqr#render'>, FileOutput>(true);
same<PoolTaskOutput<'search/wachannel#extract'>['followers'], number>(true);

/** Type checks only: never called (its calls would need a pool). */
export function callSites(services: Parameters<typeof runPoolTask>[2]['services']): void {
  void runPoolTask('search/wachannel#extract', { html: '<html>', code: 'abc' }, { services });
  // @ts-expect-error a param the task does not take
  void runPoolTask('search/wachannel#extract', { html: '<html>', channel: 'abc' }, { services });
  // @ts-expect-error a param the task needs is missing
  void runPoolTask('search/apkmirror#extract', { html: '<html>' }, { services });
  // @ts-expect-error a param of the wrong type
  void runPoolTask('tools/readqr#decode', { image: 'a path, not bytes' }, { services });
  // @ts-expect-error another task's input
  void runPoolTask('search/tiktokstalk#extract', { html: '<html>', upstream: 'ultimate-guitar' }, { services });
  // @ts-expect-error a task no module exports
  void runPoolTask('search/wachannel#parse', { html: '<html>', code: 'abc' }, { services });
  // @ts-expect-error a handler's default export is an endpoint, not a task
  void runPoolTask('search/wachannel#default', { html: '<html>', code: 'abc' }, { services });
}

t.test('a task named in the table runs in the code pool and answers its export’s value', async (t) => {
  const scope = new EngineScope();
  t.teardown(() => scope.close());
  const html =
    '<html><head><meta property="og:title" content="Manifold News | WhatsApp Channel"><meta property="og:description" content="News"></head><body><h5>1.2K followers</h5></body></html>';
  const channel = await runPoolTask('search/wachannel#extract', { html, code: 'abc' }, { services: { config: loadConfig({}), scope } });
  t.match(channel, { name: 'Manifold News', followers: 1200 });
});

t.test('the table reaches the task modules by type only, so no circle through it loads', async (t) => {
  // .dependency-cruiser.cjs lets circles pass through the table on this condition (swc cannot tell type-only imports)
  const handlers = path.join(ROOT, 'engine', 'kinds', 'handlers');
  const imports = [...fs.readFileSync(path.join(handlers, 'pool-tasks.ts'), 'utf8').matchAll(/^import (type )?.* from '([^']+)';$/gm)];
  t.ok(imports.length >= 9, 'the imports are read');
  t.same(
    imports.filter(([, typeOnly]) => !typeOnly).map(([, , from]) => from),
    ['./cpu-pool.js'],
    'the one run-time import is the code pool',
  );
  t.notMatch(fs.readFileSync(path.join(handlers, 'cpu-pool.ts'), 'utf8'), /pool-tasks/, 'which does not import the table');
});
