import type { CompiledQuery, DatabaseConnection, Driver } from 'kysely';
import { ApiError } from '../errors.js';

/**
 * A database that cannot be reached is a 503 with a stable code, not a 500: the
 * request was fine and will work again once the database is back. Errors are
 * classified where they arise — the Kysely driver (engine/db/connect.ts) and the
 * opening of a database (database.ts) — so a connection refused by an upstream
 * elsewhere is never mistaken for the database.
 */
export const DATABASE_RETRY_AFTER_S = 5;

export const databaseUnavailable = (cause?: unknown) =>
  new ApiError(503, 'database_unavailable', `The database is unreachable; retry in ${DATABASE_RETRY_AFTER_S} s`, {
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_S) },
    cause,
  });

/** The first error in `err`'s cause chain, as text: what went wrong at the bottom (for the log and the keys CLI; never for clients). */
export function rootCause(err: unknown): string {
  let e = err;
  for (let depth = 0; depth < 10 && e instanceof Error && e.cause !== undefined; depth++) e = e.cause;
  return e instanceof Error ? e.message || e.constructor.name : String(e);
}

/** Socket-level failures (Node system error codes) on the way to the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ECONNABORTED']);
/** PostgreSQL SQLSTATEs of a server going away or refusing sessions: shutdown, crash recovery, starting up, too many connections. */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres's own messages for a connection that ended or never came. */
const PG_CONNECTION_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended/i;
/** SQLite: the file is locked past busy_timeout, cannot be opened, the disk fails or is full. */
const SQLITE_CODE = /^SQLITE_(BUSY|CANTOPEN|IOERR|FULL)/;

/** Whether `err` says the database cannot be reached (rather than that a query is wrong). */
export function isUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || POSTGRES_CODES.has(code) || code.startsWith('08') || SQLITE_CODE.test(code)) return true;
  if (typeof e.message === 'string' && PG_CONNECTION_MESSAGE.test(e.message)) return true;
  // pg reports a refused connection to a host with several addresses as an AggregateError
  return err instanceof AggregateError && err.errors.some(isUnreachable);
}

const rethrow = (err: unknown): never => {
  throw err instanceof ApiError || !isUnreachable(err) ? err : databaseUnavailable(err);
};

const guarded = new WeakSet<DatabaseConnection>();

/**
 * The driver, with its failures to connect and its queries' connection failures
 * turned into database_unavailable. Patched in place, as the connections' identity
 * matters to the driver (it releases the objects it handed out).
 */
export function guardDriver(driver: Driver): Driver {
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async (...args) => {
    let connection: DatabaseConnection;
    try {
      connection = await acquire(...args);
    } catch (err) {
      // no connection at all: refused, timed out, authentication, too many clients
      throw err instanceof ApiError ? err : databaseUnavailable(err);
    }
    if (!guarded.has(connection)) {
      guarded.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = <R>(query: CompiledQuery) => execute<R>(query).catch(rethrow);
    }
    return connection;
  };
  return driver;
}
