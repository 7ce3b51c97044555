import { boundedTask } from '../../platform/workers/task.js';
import { loadHandler } from './load.js';
import { Reply, type Handler } from '../../contract/handler.js';
import { FileOutput } from '../../contract/file-output.js';
import { withSurfaces } from '../../features/effects/surfaces.js';

/** One run of a pure handler, as sent to a code-pool worker. */
export interface CpuTask {
  handler: string;
  params: Record<string, unknown>;
  options: Readonly<Record<string, unknown>>;
}

/** What crosses back: the handler's value, or a generated file's bytes and type. */
export type CpuResult = { value: unknown } | { file: { data: Uint8Array; ext: string; contentType: string } };

const loaded = new Map<string, Promise<Handler>>();

/** One task of the code pool (entered through cpu-worker.ts): the handler is imported once per worker (before the wall clock starts) and run with params and options only. */
export default boundedTask(
  async ({ handler, params, options }: CpuTask, run: Handler): Promise<CpuResult> => {
    // a handler that draws (code screenshots) gives its canvases' pixels back when it settles
    const value = await withSurfaces(async () => run({ params, options } as Parameters<Handler>[0]));
    if (value instanceof FileOutput) return { file: { data: value.data, ext: value.ext, contentType: value.contentType } };
    if (value instanceof Reply) throw new Error(`handler ${handler}: a cost: cpu handler returns data or a FileOutput, not a Reply`);
    return { value };
  },
  ({ handler }) => {
    let run = loaded.get(handler);
    if (!run) loaded.set(handler, (run = loadHandler(handler)));
    return run;
  },
);
