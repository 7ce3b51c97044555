import type { TaskEnvelope } from '../../platform/workers/task.js';

/**
 * Piscina entry point of the code pool (cpu-pool.ts); the work is in cpu-task.ts.
 * Under tsx (tests, `node --import tsx`) piscina loads this file through tsx's
 * require hook, and a worker thread does not inherit tsx's ESM hooks: without them
 * the .ts handlers cannot be imported, and a module reached both ways would exist
 * twice (FileOutput and ApiError no longer `instanceof` themselves). So this entry
 * registers the ESM hooks and loads everything else as ESM. Built JavaScript needs nothing.
 */
const task = (import.meta.url.endsWith('.ts') ? import('tsx/esm/api').then(({ register }) => void register()) : Promise.resolve()).then(
  () => import('./cpu-task.js'),
);

export default async (envelope: TaskEnvelope) => (await task).default(envelope);
