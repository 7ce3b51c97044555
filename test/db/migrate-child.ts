/**
 * One process that opens the database given in argv[2] (a `postgres://` URL or an
 * SQLite file) as an instance booting would, waits for the migrations and exits
 * 0, or prints the failure and exits 1. Started in pairs by database.test.ts.
 */
import { openDatabase } from '../../engine/platform/db/database.js';

const where = process.argv[2];
const db = openDatabase(where.startsWith('postgres://') ? { url: where } : { file: where });
try {
  await db.ready;
  console.log('migrated');
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await db.close();
}
