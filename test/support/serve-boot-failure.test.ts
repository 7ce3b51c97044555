/**
 * The test server helper (serve.ts) listens before it builds the engine, so a boot the
 * engine refuses must close the listener: otherwise the test process never exits and a
 * whole CI run ends in its timeout instead of naming the failing test.
 */
import t from 'tap';
import { serve } from './serve.js';

t.test('an engine that cannot boot fails the test instead of hanging it', async (t) => {
  await t.rejects(serve({ ENDPOINTS_DIR: '/nonexistent/endpoints' }));
});
