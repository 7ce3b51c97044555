import type { AddressInfo } from 'node:net';
import { loadConfig } from './config.js';
import { createEngine } from './app.js';
import { createHttpServer } from './http-server.js';
import { createLogger } from './log.js';
import type { TempMailServer } from './tempmail/smtp.js';
import { tempMailSettings } from './tempmail/settings.js';

/** `npm start`: boot from the environment and listen (HTTPS with HSTS when TLS files are given). */
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
});

// the temp-mail SMTP receiver runs in this process when MAIL_DOMAIN and SMTP_PORT are set
let smtp: TempMailServer | undefined;
const mail = tempMailSettings(config);
if (mail.domain && mail.smtpPort !== undefined) {
  // loaded only when configured: the SMTP server and the MIME parser are heavy
  import('./tempmail/smtp.js').then(({ startTempMail }) => startTempMail({ config, files: engine.files, port: mail.smtpPort! })).then(
    (s) => {
      smtp = s;
      logger.info({ msg: 'smtp listening', port: s.port, domain: mail.domain });
    },
    (err) => logger.error({ msg: 'smtp failed to start', err }),
  );
}

const shutdown = () => {
  server.close(() => void Promise.all([engine.close(), smtp?.close()]).then(() => process.exit(0)));
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
