import { renderTemplate, type RenderParams, type RenderResult } from './render.js';
import { runImageOp, type ImageJob } from './image-ops.js';
import type { Template } from './template-types.js';

/** A template render as sent to a pool worker. */
export interface RenderJob { template: Template; params: RenderParams; photo?: Uint8Array }
export type WorkerJob = RenderJob | ImageJob;

/** Piscina entry point: one template render or one image manipulation per call, in a worker thread. */
export default function run(job: WorkerJob): Promise<RenderResult> {
  return 'op' in job ? runImageOp(job) : renderTemplate(job.template, job.params, job.photo);
}
