/**
 * The whole conformance suite once more, with the engine's state (keys, short
 * links, temp mail, AI memory, the media cache index) in PostgreSQL instead of
 * SQLite: every example runs on a server of this test's own.
 */
import t from 'tap';
import { openDatabase } from '../engine/platform/db/database.js';
import { startPostgres } from './support/postgres.js';

const postgres = await startPostgres(t);
const url = await postgres.newDatabase();
process.env.CONFORMANCE_DATABASE_URL = url;
await import('./conformance.test.js');

// runs after the suite's own tests (tap runs subtests in order)
t.test('the examples kept their state in PostgreSQL', async (t) => {
  const db = openDatabase({ url });
  t.teardown(() => db.close());
  await db.ready;
  const links = await db.kysely.selectFrom('short_links').select('code').execute();
  t.ok(links.length > 0, `${links.length} short links made by the examples are in PostgreSQL`);
});
