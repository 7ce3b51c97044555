import { threadId } from 'node:worker_threads';
import { boundedTask } from '../../engine/platform/workers/task.js';

/** A second task module for the shared-workers test: which thread ran it. */
export default boundedTask(async () => ({ module: 'b', threadId }));
