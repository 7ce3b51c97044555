import type { CompiledQuery, DatabaseConnection, Driver } from 'kysely';
import type { CircuitBreaker } from '../../core/circuit-breaker.js';
import { ApiError } from '../../core/errors.js';

/**
 * A database that cannot be reached is a 503 with a stable code, not a 500: the
 * request was fine and will work again once the database is back. Errors are
 * classified where they arise — the Kysely driver (engine/platform/db/connect.ts) and the
 * opening of a database (database.ts) — so a connection refused by an upstream
 * elsewhere is never mistaken for the database.
 */
export const DATABASE_RETRY_AFTER_S = 5;

export const databaseUnavailable = (cause?: unknown) =>
  new ApiError('database_unavailable', `The database is unreachable; retry in ${DATABASE_RETRY_AFTER_S} s`, {
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
/**
 * PostgreSQL SQLSTATEs of a server going away or refusing sessions: shutdown, crash
 * recovery, starting up, too many connections; and a statement cancelled (57014: a
 * statement_timeout set on the role or database, or an operator's cancel): a server
 * too slow to answer in time.
 */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
/** node-postgres's own messages for a connection that ended or never came, or a query that got no answer in time. */
const PG_CONNECTION_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended|Query read timeout/i;
/** SQLite: the file is locked past busy_timeout, cannot be opened, the disk fails or is full. */
const SQLITE_CODE = /^SQLITE_(BUSY|CANTOPEN|IOERR|FULL)/;

/** Whether `err` says the database cannot be reached (rather than that a query is wrong). */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof ApiError) return err.code === 'database_unavailable';
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || POSTGRES_CODES.has(code) || code.startsWith('08') || SQLITE_CODE.test(code)) return true;
  if (typeof e.message === 'string' && PG_CONNECTION_MESSAGE.test(e.message)) return true;
  // pg reports a refused connection to a host with several addresses as an AggregateError
  return err instanceof AggregateError && err.errors.some(isUnreachable);
}

/**
 * node-postgres's messages for a wait that ran out: pg-pool's, for a new connection
 * that did not complete in connectionTimeoutMillis ('Connection terminated due to
 * connection timeout') and for a full pool with no connection freed in time ('timeout
 * exceeded when trying to connect'); pg's own connect timer ('timeout expired', the
 * cause of the first) and query_timeout ('Query read timeout').
 */
const PG_TIMEOUT_MESSAGE = /^(Connection terminated due to connection timeout|timeout exceeded when trying to connect|timeout expired|Query read timeout)$/;
/**
 * A socket connect that ran out (ETIMEDOUT), and a statement the server cancelled
 * (57014: a statement_timeout on the role or database; an operator's cancel shares
 * the code and is counted too, being rare).
 */
const TIMEOUT_CODES = new Set(['ETIMEDOUT', '57014']);

/**
 * Whether `err` (an unreachable database, isUnreachable) is a timeout: the request
 * waited DATABASE_TIMEOUT_MS (or the server's statement_timeout) before failing, and so
 * would the next ones. PostgreSQL's circuit opens on one of these (database.ts), where
 * a failure that came at once (refused, reset, terminated) has to repeat first.
 * Looks through the cause chain (pg-pool wraps pg's error, this module wraps both).
 */
export function isTimeout(err: unknown): boolean {
  for (let e = err, depth = 0; depth < 10 && e instanceof Error; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if ((typeof code === 'string' && TIMEOUT_CODES.has(code)) || PG_TIMEOUT_MESSAGE.test(e.message)) return true;
    // a host with several addresses: pg's connect reports each address's failure
    if (e instanceof AggregateError && e.errors.some(isTimeout)) return true;
  }
  return false;
}

const rethrow = (err: unknown): never => {
  throw err instanceof ApiError || !isUnreachable(err) ? err : databaseUnavailable(err);
};

const guarded = new WeakSet<DatabaseConnection>();

/** The breaker a driver's connections are taken through, and the query its probe makes (built by the caller: this module loads at boot, Kysely on first use). */
export interface DriverCircuit {
  breaker: CircuitBreaker;
  probe: CompiledQuery;
}

/**
 * The driver, with its failures to connect and its queries' connection failures
 * turned into database_unavailable. Patched in place, as the connections' identity
 * matters to the driver (it releases the objects it handed out).
 *
 * With a `circuit` (PostgreSQL), connections are taken through it: once the server
 * failed to connect or to answer a query in time (or failed three times in a row at
 * once: database.ts), the circuit is open and every request fails at once with
 * database_unavailable instead of waiting for its own timeout.
 * The probe after the cool-down is made in the background and makes a round trip
 * (`circuit.probe`), so an idle pooled connection to a frozen server cannot close the
 * circuit without an answer, and no request waits for it.
 */
export function guardDriver(driver: Driver, circuit?: DriverCircuit): Driver {
  const acquire = driver.acquireConnection.bind(driver);
  const breaker = circuit?.breaker;
  // the probe after the cool-down runs in the background, so no request waits for a frozen server's answer
  if (breaker) {
    const probe = async () => {
      const connection = await acquire();
      try {
        await connection.executeQuery(circuit!.probe);
      } finally {
        await driver.releaseConnection(connection);
      }
    };
    breaker.setProbe(probe);
    // a pool closed (shutdown, or a failed open the next use replaces) must not probe for its successor
    const destroy = driver.destroy.bind(driver);
    driver.destroy = async () => {
      breaker.clearProbe(probe);
      await destroy();
    };
  }
  const take = breaker ? () => breaker.run(acquire) : acquire;
  driver.acquireConnection = async () => {
    let connection: DatabaseConnection;
    try {
      connection = await take();
    } catch (err) {
      // no connection at all: refused, timed out, authentication, too many clients, circuit open
      throw err instanceof ApiError ? err : databaseUnavailable(err);
    }
    if (!guarded.has(connection)) {
      guarded.add(connection);
      // A failed query is not retried on a fresh connection, even when its connection was
      // dead before it was taken (a backend terminated while idle, its end not yet read):
      // pg reports that the same way as a backend terminated under the query, which may
      // have committed. That request answers 503; connect.ts closes the connection, so the
      // next one gets a fresh connection.
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = <R>(query: CompiledQuery) =>
        execute<R>(query).catch((err: unknown) => {
          breaker?.failure(err);
          return rethrow(err);
        });
    }
    return connection;
  };
  return driver;
}
