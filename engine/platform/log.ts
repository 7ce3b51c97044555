import { pino, stdSerializers, stdTimeFunctions, type DestinationStream, type Level } from 'pino';
import { REDACTED, redactLogLine, redactText } from './auth/redact.js';

/**
 * Structured JSON-lines logging with pino, one object per line on stdout:
 * `{"level":"info","time":"2026-…Z","requestId":…,"method":…,"url":…,"status":…,"ms":…}`.
 * Callers pass already-redacted URLs (pipeline/request-context.ts); on top of that,
 * credential headers are cut by pino's redact paths and errors are reduced to type,
 * message, stack and code with secrets scrubbed. Stacks reach this log only, never
 * a response.
 */

/** What the engine's modules log with; a pino logger is one, and so is a test's line collector. */
export interface Logger {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown> & { err?: unknown }): void;
}

/** `LOG_LEVEL` values, most to least severe. */
export const LOG_LEVELS: readonly (Level | 'silent')[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'x-api-key', 'cookie', 'set-cookie'];

/**
 * Where a headers object may be logged, its credentials are cut. Explicit paths: pino's
 * wildcard paths cost 20–50 µs a line (measured), and the line guard (redactLogLine)
 * blanks a credential field under any other path anyway.
 */
const HEADER_HOLDERS = ['', 'req.', 'res.', 'request.', 'response.', 'upstream.'];
const REDACT_PATHS = HEADER_HOLDERS.flatMap((holder) => CREDENTIAL_HEADERS.map((name) => `${holder}headers["${name}"]`));

/** Own properties of an error worth logging; everything else (a got error's options, response…) may hold secrets. */
const ERROR_FIELDS = ['code', 'status', 'statusCode', 'errno', 'syscall'] as const;

/**
 * An error as logged: type, message and stack (causes appended, by pino's serializer),
 * its code fields, secrets scrubbed from the text. Not the enumerable rest: an HTTP
 * client's error carries the request options, headers included.
 */
export function serializeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err, message: redactText(typeof err === 'string' ? err : safeJson(err)) };
  const std = stdSerializers.err(err);
  const out: Record<string, unknown> = { type: std.type, message: redactText(std.message) };
  if (std.stack) out.stack = redactText(std.stack);
  for (const field of ERROR_FIELDS) {
    const value = (err as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number') out[field] = typeof value === 'string' ? redactText(value) : value;
  }
  return out;
}

const safeJson = (value: unknown) => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

export interface LoggerOptions {
  /** `LOG_LEVEL`: one of LOG_LEVELS; default `info`. */
  level?: string;
  /** Where lines go: a function receiving each line without its newline, or a stream; default stdout. */
  destination?: ((line: string) => void) | DestinationStream;
}

/**
 * The server's logger. Writes synchronously to stdout: lines keep their order, and
 * none is lost when the process exits right after logging (shutdown, fatal boot).
 * A function argument is the destination (the original signature, kept for tests).
 */
export function createLogger(options: LoggerOptions | ((line: string) => void) = {}) {
  const { level = process.env.LOG_LEVEL, destination } = typeof options === 'function' ? { destination: options } : options;
  const known = level === undefined || level === '' || (LOG_LEVELS as readonly string[]).includes(level);
  const stream: DestinationStream =
    typeof destination === 'function'
      ? { write: (chunk: string) => destination(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) }
      : (destination ?? pino.destination({ dest: 1, sync: true }));
  const logger = pino(
    {
      level: known && level ? level : 'info',
      base: undefined, // no pid/hostname: the line keeps the fields the access log always had
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: {
        // pino copies an error's raw message into `msg`, and takes messages as given: scrub both
        logMethod(args, method) {
          const [first, second] = args as unknown[];
          const err = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
          const fields = first instanceof Error ? { err: first } : first;
          if (typeof second === 'string') return method.call(this, fields as object, redactText(second));
          if (err instanceof Error && (fields as { msg?: unknown }).msg === undefined) return method.call(this, fields as object, redactText(err.message));
          return method.apply(this, typeof first === 'string' ? [redactText(first)] : args);
        },
        // the last guard, over every serialised line: no secret pair or personal key leaves the process
        streamWrite: redactLogLine,
      },
    },
    stream,
  );
  if (!known) logger.warn({ msg: `LOG_LEVEL=${level} is not one of ${LOG_LEVELS.join(', ')}; logging at info` });
  return logger;
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };
