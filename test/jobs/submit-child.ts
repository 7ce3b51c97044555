/**
 * One process submitting jobs for one key, as an instance sharing an SQLite file with
 * others on the same host would. Driven by lines of JSON on stdin, answering each
 * with one line on stdout, so the parent (key-limit-processes.test.ts) can open every
 * child's database first and then let them all submit at the same moment:
 * - `{"open": FILE}` → opens the (already migrated) file and its one connection: `{"ready": true}`
 * - `{"submit": N, "limit": L, "key": K, "at": EPOCH_MS}` → at that instant (the same for every
 *   child, so they start together), N createWithin(L) at once:
 *   `{"outcomes": ["created" | "refused" | "error CODE message", …]}`, then closes the file.
 */
import readline from 'node:readline';
import { openDatabase, type Database } from '../../engine/platform/db/database.js';
import { JobStore } from '../../engine/pipeline/jobs/store.js';

const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);
let db: Database | undefined;

for await (const line of readline.createInterface({ input: process.stdin })) {
  const message = JSON.parse(line) as { open?: string; submit?: number; limit?: number; key?: string; at?: number };
  if (message.open) {
    db = openDatabase({ file: message.open });
    await db.ready;
    send({ ready: true });
  } else if (message.submit && db) {
    const store = new JobStore(db);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, (message.at ?? 0) - Date.now())));
    const outcomes = await Promise.all(
      Array.from({ length: message.submit }, (_, i) =>
        store
          .createWithin(message.limit!, {
            keyId: message.key!,
            endpoint: 'GET /api/tools/web2zip',
            params: { url: `https://example.com/?n=${process.pid}-${i}` },
          })
          .then(
            (outcome) => ('job' in outcome ? 'created' : 'refused'),
            (error: { code?: string; message?: string }) => `error ${error.code ?? ''} ${error.message}`,
          ),
      ),
    );
    await db.close();
    db = undefined;
    send({ outcomes });
  }
}
