import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { openDatabase } from '../../engine/platform/db/database.js';
import { JobStore } from '../../engine/pipeline/jobs/store.js';

/**
 * The per-key limit of unfinished jobs across processes sharing one SQLite file (two
 * instances on one host, an api instance and a worker): each process has its own
 * connection, so only SQLite's write lock (createWithin's BEGIN IMMEDIATE) stands
 * between their count-then-insert steps. Several child processes submit for the same
 * key at the same moment, round after round on a fresh file each time: exactly LIMIT
 * jobs recorded in all, every other submission refused, and no SQLITE_BUSY escaping
 * (the busy timeout absorbs the wait for the lock).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const PROCESSES = 3;
const EACH = 4;
const LIMIT = 2;
const ROUNDS = 10;

interface Child {
  /** Send one message and wait for its one-line answer. */
  ask(message: unknown): Promise<any>;
}

function startChild(): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'submit-child.ts')], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  t.teardown(async () => {
    child.stdin.end();
    await exited;
  });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async ask(message) {
      child.stdin.write(`${JSON.stringify(message)}\n`);
      const line = await lines.next();
      if (line.done) throw new Error(`child ${child.pid} exited:\n${stderr}`);
      return JSON.parse(line.value);
    },
  };
}

const children = Array.from({ length: PROCESSES }, startChild);

t.test(`${PROCESSES} processes × ${EACH} submissions at once for one key, limit ${LIMIT}, ${ROUNDS} rounds`, async (t) => {
  for (let round = 1; round <= ROUNDS; round++) {
    const file = path.join(t.testdir(), `round-${round}.db`);
    const db = openDatabase({ file });
    await db.ready; // migrated here, so the children race only in their submissions
    await Promise.all(children.map((child) => child.ask({ open: file })));
    const at = Date.now() + 100;
    const answers = await Promise.all(children.map((child) => child.ask({ submit: EACH, limit: LIMIT, key: 'key_a', at })));
    const outcomes = answers.flatMap((a) => a.outcomes as string[]);
    const created = outcomes.filter((o) => o === 'created').length;
    t.same(
      { created, refused: outcomes.filter((o) => o === 'refused').length, errors: outcomes.filter((o) => o.startsWith('error')) },
      { created: LIMIT, refused: PROCESSES * EACH - LIMIT, errors: [] },
      `round ${round}: ${answers.map((a) => a.outcomes.filter((o: string) => o === 'created').length).join('+')} created`,
    );
    const store = new JobStore(db);
    t.same(await store.counts(), { queued: LIMIT, active: 0, completed: 0, failed: 0, cancelled: 0 }, `round ${round}: ${LIMIT} records`);
    await db.close();
  }
});
