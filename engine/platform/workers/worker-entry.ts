import type { TaskEnvelope } from './task.js';

/**
 * Piscina entry point of the shared workers (shared-workers.ts): each task names the module
 * that runs it (a BoundedPool's task module, which exports `boundedTask(...)`), imported
 * the first time this worker runs one of its tasks and kept.
 *
 * Under tsx (tests, `node --import tsx`) piscina loads this file through tsx's require
 * hook, and a worker thread does not inherit tsx's ESM hooks: without them the .ts task
 * modules cannot be imported, and a module reached both ways would exist twice (FileOutput
 * and ApiError no longer `instanceof` themselves). So this entry registers the ESM hooks
 * and loads everything else as ESM. Built JavaScript needs nothing.
 */
const ready = import.meta.url.endsWith('.ts') ? import('tsx/esm/api').then(({ register }) => void register()) : Promise.resolve();

type Entry = (envelope: TaskEnvelope) => Promise<unknown>;
const modules = new Map<string, Promise<Entry>>();

export default async (envelope: TaskEnvelope & { module: string }) => {
  let entry = modules.get(envelope.module);
  if (!entry) {
    entry = ready.then(() => import(envelope.module)).then((m: { default: Entry }) => m.default);
    modules.set(envelope.module, entry);
    entry.catch(() => modules.delete(envelope.module));
  }
  return (await entry)({ task: envelope.task, port: envelope.port });
};
