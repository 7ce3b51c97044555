/**
 * The canvases a pool task draws on give their pixels back when it settles
 * (engine/features/effects/surfaces.ts): tracked ones are resized to 1×1, kept ones are not,
 * and outside a task nothing is tracked.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import t from 'tap';
import { kept, releaseSurface, tracked, withSurfaces } from '../../engine/features/effects/surfaces.js';

t.test('tracked canvases are released when the task settles, kept ones are not', async (t) => {
  let a!: Canvas, b!: Canvas;
  const value = await withSurfaces(async () => {
    a = tracked(createCanvas(64, 32));
    b = kept(tracked(createCanvas(16, 16)));
    t.equal(a.width, 64, 'usable during the task');
    return 'done';
  });
  t.equal(value, 'done');
  t.same([a.width, a.height], [1, 1], 'released');
  t.same([b.width, b.height], [16, 16], 'kept');
  releaseSurface(b);
  t.same([b.width, b.height], [1, 1]);
});

t.test('a task that throws still releases its canvases', async (t) => {
  let a!: Canvas;
  await t.rejects(
    withSurfaces(async () => {
      a = tracked(createCanvas(8, 8));
      throw new Error('boom');
    }),
    { message: 'boom' },
  );
  t.equal(a.width, 1);
});

t.test('outside a task (the main thread) nothing is tracked', async (t) => {
  const c = tracked(createCanvas(8, 8));
  await withSurfaces(async () => undefined);
  t.equal(c.width, 8);
});
