import type { EngineServices } from '../../contract/call.js';
import type { PureHandler } from '../../contract/handler.js';
import { runPure } from './cpu-pool.js';
import type * as apkmirror from './search/apkmirror.js';
import type * as chord from './search/chord.js';
import type * as happymod from './search/happymod.js';
import type * as playstore from './search/playstore.js';
import type * as tiktokstalk from './search/tiktokstalk.js';
import type * as wachannel from './search/wachannel.js';
import type * as createqr from './tools/createqr.js';
import type * as readqr from './tools/readqr.js';

/**
 * The code pool's own tasks: pure exports of handler modules that no manifest names, which a
 * handler runs in the pool by name (`<category>/<name>#<export>`): a page parsed off the event
 * loop, a QR code drawn or read. This table of modules is the one place a task's input and
 * output types come from — the export's own params and return type, through the mapped types
 * below — so a call site naming a task cannot pass it the wrong input or misread its answer
 * (test/handlers/pool-tasks.test.ts). A module whose pure export is run by name is listed here.
 *
 * The imports above are type-only: erased when built, they close no circle that loads (the
 * modules import runPoolTask at run time); .dependency-cruiser.cjs says so beside its circle rule.
 */
interface PoolTaskModules {
  'search/apkmirror': typeof apkmirror;
  'search/chord': typeof chord;
  'search/happymod': typeof happymod;
  'search/playstore': typeof playstore;
  'search/tiktokstalk': typeof tiktokstalk;
  'search/wachannel': typeof wachannel;
  'tools/createqr': typeof createqr;
  'tools/readqr': typeof readqr;
}

type ModuleName = keyof PoolTaskModules & string;

/** A module's pure exports by name: its default export is its endpoint's handler, not a task. */
type PureExports<M extends ModuleName> = {
  [E in Exclude<keyof PoolTaskModules[M], 'default'> & string as PoolTaskModules[M][E] extends PureHandler<never> ? E : never]: PoolTaskModules[M][E];
};

/** Every task, `<module>#<export>`. */
export type PoolTaskName = { [M in ModuleName]: `${M}#${keyof PureExports<M> & string}` }[ModuleName];

/** The export that runs a task. */
type TaskOf<N extends PoolTaskName> = N extends `${infer M extends ModuleName}#${infer E}` ? PureExports<M>[E & keyof PureExports<M>] : never;

/** What the task's export takes as its params. */
export type PoolTaskInput<N extends PoolTaskName> = TaskOf<N> extends PureHandler<infer P> ? P : never;
/** What the task answers: its export's value (a FileOutput comes back as one). */
export type PoolTaskOutput<N extends PoolTaskName> = TaskOf<N> extends (...args: never[]) => infer R ? Awaited<R> : never;

/**
 * Run one of the code pool's tasks: under the pool's wall-clock, heap and stack limits, so a
 * huge or hostile input costs one worker (422 too_complex past the limit), never the other clients.
 */
export const runPoolTask = <N extends PoolTaskName>(
  task: N,
  params: PoolTaskInput<N>,
  run: { signal?: AbortSignal; taskMs?: number; services: EngineServices },
): Promise<PoolTaskOutput<N>> => runPure({ handler: task, params: params as Record<string, unknown>, options: {} }, run) as Promise<PoolTaskOutput<N>>;
