import { boundedTask } from '../../platform/workers/task.js';
import { renderTemplate, type RenderParams, type RenderResult } from './render.js';
import { runImageOp, type ImageJob } from './image-ops.js';
import type { Template } from './template.generated.js';
import { renderSticker } from '../stickers/render.js';
import type { StickerJob } from '../stickers/job.js';
import { withSurfaces } from './surfaces.js';

/** A template render as sent to a pool worker. */
export interface RenderJob {
  template: Template;
  params: RenderParams;
  photo?: Uint8Array;
}
export type WorkerJob = RenderJob | ImageJob | StickerJob;

/** One template render, image manipulation or sticker per task, in a worker of the render pool (render-pool.ts). */
export default boundedTask((job: WorkerJob): Promise<RenderResult> =>
  // the task's canvases give their pixels back when it settles (surfaces.ts)
  withSurfaces(() => {
    if ('sticker' in job) return renderSticker(job);
    return 'op' in job ? runImageOp(job) : renderTemplate(job.template, job.params, job.photo);
  }),
);
