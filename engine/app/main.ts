import type { AddressInfo } from 'node:net';
import { loadConfig } from '../platform/config.js';
import { createEngine } from './app.js';
import { createHttpServer } from './http-server.js';
import { lowOpenFilesWarning, openFilesLimit } from '../platform/http/open-files.js';
import { createLogger } from '../platform/log.js';
import { tuneV8 } from '../core/v8-flags.js';
import { bootWarnings } from './boot-warnings.js';
import { formatUnavailable, summarizeUnavailable } from '../platform/settings/unavailable-summary.js';

/** `npm start`: boot from the environment and listen (HTTPS with HSTS when TLS files are given). */
tuneV8();
const logger = createLogger();
let engine: ReturnType<typeof createEngine>;
try {
  engine = createEngine({ config: loadConfig(), logger });
} catch (err) {
  // a bad manifest names its file and field: say that, not a stack
  process.stderr.write(`manifold: cannot start: ${(err as Error).message}\n`);
  process.exit(1);
}
const { config, app, registry } = engine;

const server = createHttpServer(config, app.callback());

// a port already taken (often another Manifold still running) is the operator's to fix: say
// where and which variable moves it, instead of Node's unhandled 'error' event and its stack
server.once('error', (err: NodeJS.ErrnoException) => {
  const where = `${config.host}:${config.port}`;
  const why =
    err.code === 'EADDRINUSE'
      ? `${where} is already in use (another server is listening there): stop it, or set PORT`
      : err.code === 'EACCES'
        ? `no permission to listen on ${where} (ports below 1024 need privileges): set PORT`
        : `cannot listen on ${where}: ${err.message}`;
  process.stderr.write(`manifold: cannot start: ${why}\n`);
  process.exit(1);
});

server.listen(config.port, config.host, () => {
  const bootMs = Math.round(performance.now());
  // deciding availability reads each endpoint's requirements: after boot, for the log only
  const available = registry.routes.filter((r) => r.handler).length;
  logger.info({
    msg: 'listening',
    url: `${config.tlsCertFile ? 'https' : 'http'}://${config.host}:${(server.address() as AddressInfo).port}`,
    endpoints: registry.routes.length,
    available,
    // from the process's start to listening: module loading included
    bootMs,
  });
  // what the host could set or install to enable the rest, one group per step
  const unavailable = summarizeUnavailable(registry.routes);
  if (unavailable.total) logger.info({ msg: formatUnavailable(unavailable), unavailable: unavailable.total });
  for (const warning of bootWarnings(config)) logger.warn({ msg: warning });
  const descriptors = lowOpenFilesWarning(openFilesLimit());
  if (descriptors) logger.warn({ msg: descriptors });
});

// what the features run beside the HTTP server (features.ts)
engine.start().catch((err) => logger.error({ msg: 'a feature failed to start', err }));

const shutdown = () => {
  server.close(() => void engine.close().then(() => process.exit(0)));
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
