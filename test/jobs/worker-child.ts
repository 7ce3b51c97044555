/**
 * A `worker` instance in a process of its own, so a test can SIGKILL it mid-job (as
 * the OOM killer or a crashed host would): the engine's variables as JSON in argv[2]
 * (REDIS_URL, DATA_DIR shared with the test's api instance), runs /api/tools/web2zip
 * jobs, prints `ready` once it takes jobs. Started by worker-killed.test.ts.
 */
import { serve } from '../support/serve.js';
import { web2zip } from './site.js';

const env = JSON.parse(process.argv[2]) as Record<string, string>;
const served = await serve({ ...env, MANIFOLD_ROLE: 'worker' }, { endpoints: web2zip });
await served.engine.start();
console.log('ready');
process.once('SIGTERM', () => void served.close().then(() => process.exit(0)));
