import { renderTemplate, type RenderParams, type RenderResult } from './render.js';
import type { Template } from './template-types.js';

/** A render job as sent to a pool worker. */
export interface RenderJob { template: Template; params: RenderParams; photo?: Uint8Array }

/** Piscina entry point: one render per call, in a worker thread. */
export default function run(job: RenderJob): Promise<RenderResult> {
  return renderTemplate(job.template, job.params, job.photo);
}
