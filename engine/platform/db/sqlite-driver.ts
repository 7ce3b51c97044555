/**
 * The better-sqlite3 build for the Node line this process runs on. Node 24.19 made
 * node::ObjectWrap's destructor assert that a JavaScript context is entered; better-sqlite3 12
 * derives its Database and Statement from it, so the first statement the garbage collector
 * frees outside one aborts the process (`Assertion failed: (env) != nullptr`, better-sqlite3
 * issue #1515). better-sqlite3 13 is rebuilt on Node-API and ships its binaries in the package,
 * but segfaults on Node 20, which the build machines still run. So Node 22 and newer load 13
 * (the `better-sqlite3-v13` alias in package.json) and Node 20 keeps 12, until Node 20 is
 * dropped: then `better-sqlite3` becomes ^13 and this file goes. Both have one API.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { packageInstalled } from '../../core/packages.js';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** The package name this process loads SQLite from. */
export const SQLITE_DRIVER = NODE_MAJOR >= 22 ? 'better-sqlite3-v13' : 'better-sqlite3';

/** better-sqlite3's Database class, from the build that suits this Node. */
export const Sqlite: typeof BetterSqlite3 = packageInstalled(SQLITE_DRIVER)
  ? ((await import(SQLITE_DRIVER)) as { default: typeof BetterSqlite3 }).default
  : (MissingDriver as unknown as typeof BetterSqlite3);

/**
 * 12 is the optional feature optional/node20 (it compiles at install): an install without it
 * (`npm ci --omit=dev --workspaces=false`) is for Node 22 and newer. On Node 20 it still runs
 * on PostgreSQL; opening SQLite says what to install.
 */
function MissingDriver(): never {
  const fix = SQLITE_DRIVER === 'better-sqlite3' ? 'better-sqlite3 12: npm install -w optional/node20 (or run Node 22 or newer)' : `${SQLITE_DRIVER}: npm ci`;
  throw new Error(`SQLite on Node ${process.versions.node} needs ${fix}`);
}
