/**
 * An `api` instance in a process of its own that dies (SIGKILL, as the OOM killer or a
 * crashed host would) the moment its first job is recorded, before the job is queued: the
 * window a crash strands a record in. The engine's variables as JSON in argv[2]; prints
 * `ready <url>` once it serves, and `recorded <id> <status>` as it dies. Started by crash-between-steps.test.ts.
 */
import fs from 'node:fs';
import { JobStore } from '../../engine/pipeline/jobs/store.js';
import { serve } from '../support/serve.js';
import { web2zip } from './site.js';

const createWithin = JobStore.prototype.createWithin;
JobStore.prototype.createWithin = async function (this: JobStore, ...args: Parameters<JobStore['createWithin']>) {
  const created = await createWithin.apply(this, args);
  // committed, not yet on the queue: no shutdown, no finally, nothing after this runs. What
  // was committed is told first (a synchronous write: it is out before the kill), since the
  // reconciler may have queued and run the record again by the time the test reads it
  if ('job' in created) {
    fs.writeSync(1, `recorded ${created.job.id} ${created.job.status}\n`);
    process.kill(process.pid, 'SIGKILL');
  }
  return created;
};

const env = JSON.parse(process.argv[2]!) as Record<string, string>;
const served = await serve({ ...env, MANIFOLD_ROLE: 'api' }, { endpoints: web2zip });
await served.engine.start();
console.log(`ready ${served.url}`);
