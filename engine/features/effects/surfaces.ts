import type { Canvas } from '@napi-rs/canvas';

/**
 * Canvases a task draws on, released when the task ends.
 *
 * A canvas's pixels live in Skia's native memory, which V8 does not count: a render worker's
 * small JavaScript heap rarely needs the major collection that would finalise a dead
 * canvas, so each render's canvas, its layers and filter copies (4 MiB for a 1024×1024
 * surface, several per render) stayed allocated long after the render. A canvas resized to
 * 1×1 frees its surface at once, so the worker's task (render-worker.ts, and the code
 * pool's, which draws code screenshots) runs inside `withSurfaces`, every canvas made for
 * it is `tracked`, and they are all released when it settles. A canvas that must outlive the task (a cached texture) is
 * `kept` and released by whoever keeps it.
 */
let current: Set<Canvas> | undefined;

/** A canvas made for the running task: released when the task ends. Outside a task (the main thread), nothing changes. */
export function tracked(canvas: Canvas): Canvas {
  current?.add(canvas);
  return canvas;
}

/** This canvas outlives the task; its keeper releases it (`releaseSurface`). */
export function kept(canvas: Canvas): Canvas {
  current?.delete(canvas);
  return canvas;
}

/** Free a canvas's pixels now: resizing replaces its surface, and a 1×1 one holds 4 bytes (0 would mean the 350×150 default). */
export function releaseSurface(canvas: Canvas): void {
  canvas.width = 1;
  canvas.height = 1;
}

/** Run one task, then release every canvas it tracked. Pool workers run one task at a time. */
export async function withSurfaces<T>(task: () => Promise<T>): Promise<T> {
  const mine = new Set<Canvas>();
  current = mine;
  try {
    return await task();
  } finally {
    if (current === mine) current = undefined;
    for (const canvas of mine) releaseSurface(canvas);
  }
}
