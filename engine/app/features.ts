import { systemBuiltins } from '../pipeline/admin/system-routes.js';
import { keyBuiltins } from '../pipeline/admin/keys-routes.js';
import { usageBuiltins } from '../pipeline/admin/usage-routes.js';
import { consoleBuiltins } from '../pipeline/admin/console-routes.js';
import { unavailableBuiltins } from '../pipeline/admin/unavailable-route.js';
import { fileBuiltins } from '../pipeline/routes/files.js';
import { discoveryBuiltins } from '../pipeline/discovery/routes.js';
import { galleryBuiltins } from '../pipeline/discovery/gallery.js';
import { tempMailSettings } from '../features/tempmail/settings.js';
import { mediaSettings } from '../features/media/settings.js';
import { registerYtdlpMetrics } from '../features/media/ytdlp-metrics.js';
import { cookiePools } from '../features/media/cookie-pool.js';
import { checkScriptFonts } from '../features/effects/script-fonts.js';
import { metricsBuiltins } from '../pipeline/routes/metrics.js';
import { jobBuiltins } from '../pipeline/jobs/routes.js';
import { HEALTH_CHECK_TIMEOUT_MS, Readiness } from '../platform/health/readiness.js';
import { healthBuiltins } from '../pipeline/routes/health.js';
import { dependencyMetrics } from '../platform/metrics/dependencies.js';
import { positiveInt } from '../platform/settings/int.js';
import type { Feature } from '../pipeline/feature.js';

/** The features of one engine; made per engine, so what a feature starts belongs to that engine. */
export function engineFeatures(): Feature[] {
  return [
    { name: 'system', routes: (c) => systemBuiltins(c) },
    { name: 'api keys', routes: (c) => keyBuiltins(c) },
    { name: 'usage', routes: (c) => usageBuiltins(c) },
    // the web console at /admin (build/console/) and the unavailable endpoints it lists
    { name: 'console', routes: (c) => [...consoleBuiltins(), ...unavailableBuiltins(c)] },
    { name: 'hosted files', routes: (c) => fileBuiltins(c.files) },
    { name: 'discovery', routes: (c) => discoveryBuiltins(c) },
    { name: 'effects gallery', routes: (c) => galleryBuiltins(c) },
    { name: 'metrics', routes: (c) => metricsBuiltins(c.config, c.metrics) },
    healthFeature(),
    {
      name: 'jobs',
      routes: (c) => {
        c.metrics.jobStates(() => c.jobs.store.counts());
        return jobBuiltins(c.jobs);
      },
      // the workers (roles worker and all); the engine closes the queue with its stores
      start: (c) => c.jobs.start(),
    },
    tempMailReceiver(),
    // the media service (downloaders) starts on first use in the engine's scope: its settings are checked now;
    // yt-dlp's version and age are on /metrics from the start
    {
      name: 'media',
      check: (config, scope) => {
        mediaSettings(config);
        cookiePools({ config, scope }); // YTDLP_COOKIES_DIR is listed now: an unreadable one stops the boot
      },
      routes: (c) => {
        registerYtdlpMetrics(c.metrics.registry, c);
        return [];
      },
    },
    // launched on first use (screenshots, HTML obfuscation), so only closed here
    // says once at boot which scripts stickers and text effects cannot draw on this host
    { name: 'fonts', start: (c) => checkScriptFonts(c.config.env, (fields) => c.logger.info(fields)) },
    // worker pools (render, upscale, code), the media service (egress proxy, cache janitor),
    // Apertium and OCR workers start on first use in the engine's scope (scope.ts): app.ts closes it
  ];
}

/** /health/live and /health/ready, and the dependencies' state in /metrics; closes the readiness checks' own connections. */
function healthFeature(): Feature {
  let readiness: Readiness | undefined;
  return {
    name: 'health',
    check: (config) => void positiveInt(config.env, 'HEALTH_CHECK_TIMEOUT_MS', HEALTH_CHECK_TIMEOUT_MS),
    routes(c) {
      readiness = new Readiness({
        config: c.config,
        database: c.database,
        logger: c.logger,
        pingFiles: c.files.ping && ((signal) => c.files.ping!(signal)),
        pingQueue: c.jobs.ping && ((signal) => c.jobs.ping!(signal)),
      });
      dependencyMetrics(c.metrics.registry, readiness, c.circuits);
      return healthBuiltins(readiness);
    },
    async close() {
      await readiness?.close();
    },
  };
}

/** The temp-mail SMTP receiver, in this process when MAIL_DOMAIN and SMTP_PORT are set. */
function tempMailReceiver(): Feature {
  let server: { close(): Promise<void> } | undefined;
  return {
    name: 'temp-mail SMTP receiver',
    check: (config) => void tempMailSettings(config),
    async start({ config, database, files, logger }) {
      const mail = tempMailSettings(config);
      if (!mail.domain || mail.smtpPort === undefined) return;
      // loaded only when configured: the SMTP server and the MIME parser are heavy
      const { startTempMail } = await import('../features/tempmail/smtp.js');
      const started = await startTempMail({ config, database, files, port: mail.smtpPort });
      server = started;
      logger.info({ msg: 'smtp listening', port: started.port, domain: mail.domain });
    },
    async close() {
      await server?.close();
      server = undefined;
    },
  };
}
