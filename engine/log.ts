/**
 * JSON-lines logging to stdout/stderr. Callers pass already-redacted fields
 * (request-context.ts redacts URLs); errors keep their stack here, never in responses.
 */
export interface Logger {
  info(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown> & { err?: unknown }): void;
}

export function createLogger(write: (line: string) => void = (line) => process.stdout.write(line + '\n')): Logger {
  const emit = (level: string, fields: Record<string, unknown>) => write(JSON.stringify({ time: new Date().toISOString(), level, ...fields }));
  return {
    info: (fields) => emit('info', fields),
    error: ({ err, ...fields }) =>
      emit('error', { ...fields, ...(err instanceof Error ? { error: err.message, stack: err.stack } : err !== undefined ? { error: String(err) } : {}) }),
  };
}

export const silentLogger: Logger = { info: () => {}, error: () => {} };
