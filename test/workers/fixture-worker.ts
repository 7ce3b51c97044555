import { boundedTask } from '../../engine/platform/workers/task.js';
import { invalidParameter } from '../../engine/core/errors.js';

/** A worker for the BoundedPool test: each task names a behaviour. */
export default boundedTask(async (task: { kind: string; ms?: number }) => {
  switch (task.kind) {
    case 'echo':
      return { threadId: (await import('node:worker_threads')).threadId, bytes: Buffer.from('hi') };
    case 'sleep':
      await new Promise((resolve) => setTimeout(resolve, task.ms));
      return 'slept';
    case 'spin':
      for (;;);
    case 'hog': {
      const keep: number[][] = [];
      for (;;) keep.push(new Array(1e6).fill(1.5));
    }
    case 'deep': {
      const down = (n: number): number => down(n + 1) + 1;
      return down(0);
    }
    case 'bad-param':
      throw invalidParameter('text', 'is not right');
    default:
      throw new Error('boom');
  }
});
