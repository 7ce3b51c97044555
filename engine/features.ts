import type { Config } from './config.js';
import type { Registry } from './registry.js';
import type { KeyStore } from './auth/key-store.js';
import type { UsageCounter } from './db/usage.js';
import type { DailyQuota } from './limits/daily-quota.js';
import type { FileStore } from './storage/files.js';
import type { Logger } from './log.js';
import type { Builtin } from './pipeline/builtin.js';
import { systemBuiltins } from './admin/system-routes.js';
import { keyBuiltins } from './admin/keys-routes.js';
import { usageBuiltins } from './admin/usage-routes.js';
import { fileBuiltins } from './storage/file-route.js';
import { discoveryBuiltins } from './discovery/routes.js';
import { galleryBuiltins } from './effects/gallery.js';
import { tempMailSettings } from './tempmail/settings.js';
import { mediaSettings } from './media/settings.js';
import { registerYtdlpMetrics } from './media/ytdlp-metrics.js';
import { cookiePools } from './media/cookie-pool.js';
import { closeChromium } from './tools/browser/chromium.js';
import { checkScriptFonts } from './effects/script-fonts.js';
import type { EngineMetrics } from './metrics/metrics.js';
import { metricsBuiltins } from './metrics/route.js';
import { jobBuiltins } from './jobs/routes.js';
import { HEALTH_CHECK_TIMEOUT_MS, Readiness } from './health/readiness.js';
import { healthBuiltins } from './health/routes.js';
import { dependencyMetrics, type CircuitReading } from './metrics/dependencies.js';
import { positiveInt } from './settings/int.js';
import type { Jobs } from './jobs/service.js';

/**
 * What an engine is made of besides its manifests, each with its lifecycle: the built-in
 * routes it adds, what it starts once the server listens (`start`), and what it stops
 * at shutdown (`close`: listeners, child processes, worker pools). app.ts and main.ts
 * name no feature: they build, start and close this list.
 */
export interface Feature {
  name: string;
  /** Throws on a bad setting of the feature: called as the engine is built, so a typo stops the boot though the feature starts later. */
  check?(config: Config): void;
  routes?(context: FeatureContext): Builtin[];
  start?(context: FeatureContext): Promise<void>;
  close?(): Promise<void>;
}

export interface FeatureContext {
  config: Config;
  registry: Registry;
  store: KeyStore;
  usage: UsageCounter;
  quota: DailyQuota;
  files: FileStore;
  logger: Logger;
  metrics: EngineMetrics;
  jobs: Jobs;
  /** The whole built-in table (the listing and the OpenAPI document describe it). */
  builtins: () => readonly Builtin[];
  /** The circuit breakers in front of dependencies and their state now (metrics). */
  circuits: () => CircuitReading[];
}

/** The features of one engine; made per engine, so what a feature starts belongs to that engine. */
export function engineFeatures(): Feature[] {
  return [
    { name: 'system', routes: (c) => systemBuiltins(c) },
    { name: 'api keys', routes: (c) => keyBuiltins(c) },
    { name: 'usage', routes: (c) => usageBuiltins(c) },
    { name: 'hosted files', routes: (c) => fileBuiltins(c.files) },
    { name: 'discovery', routes: (c) => discoveryBuiltins(c) },
    { name: 'effects gallery', routes: (c) => galleryBuiltins(c) },
    { name: 'metrics', routes: (c) => metricsBuiltins(c.config, c.metrics) },
    healthFeature(),
    {
      name: 'jobs',
      routes: (c) => {
        c.metrics.jobStates(() => c.jobs.store.counts());
        return jobBuiltins(c.jobs.store);
      },
      // the workers (roles worker and all); the engine closes the queue with its stores
      start: (c) => c.jobs.start(),
    },
    tempMailReceiver(),
    // the media service (downloaders) starts on first use in the engine's scope: its settings are checked now;
    // yt-dlp's version and age are on /metrics from the start
    {
      name: 'media',
      check: (config) => {
        mediaSettings(config);
        cookiePools(config); // YTDLP_COOKIES_DIR is listed now: an unreadable one stops the boot
      },
      routes: (c) => {
        registerYtdlpMetrics(c.metrics.registry, c.config);
        return [];
      },
    },
    // launched on first use (screenshots, HTML obfuscation), so only closed here
    { name: 'chromium', close: closeChromium },
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
    async start({ config, files, logger }) {
      const mail = tempMailSettings(config);
      if (!mail.domain || mail.smtpPort === undefined) return;
      // loaded only when configured: the SMTP server and the MIME parser are heavy
      const { startTempMail } = await import('./tempmail/smtp.js');
      const started = await startTempMail({ config, files, port: mail.smtpPort });
      server = started;
      logger.info({ msg: 'smtp listening', port: started.port, domain: mail.domain });
    },
    async close() {
      await server?.close();
      server = undefined;
    },
  };
}
