import { Gauge, type Registry } from 'prom-client';
import { cookiePools } from './cookie-pool.js';
import { ytdlpStatus } from './ytdlp-version.js';
import type { EngineServices } from '../../contract/call.js';

/**
 * yt-dlp's version and age on /metrics, read at each scrape from the binary YTDLP_PATH
 * names (asked at most hourly, and again as soon as the file is replaced: ytdlp-version.ts).
 * Age is what predicts broken downloads (sites change every few weeks): alert on
 * `manifold_ytdlp_release_age_days > 60` and run `npm run ytdlp:update`. Both are absent
 * while yt-dlp is missing or names no dated release; its version shows on /health too.
 */
export function registerYtdlpMetrics(registry: Registry, services: Required<EngineServices>): void {
  const { config } = services;
  const env = config.env;
  new Gauge({
    name: 'manifold_ytdlp_version_info',
    help: 'The yt-dlp the downloaders run: always 1, its version and path as labels',
    labelNames: ['version', 'path'] as const,
    registers: [registry],
    async collect() {
      const status = await ytdlpStatus(env);
      this.reset();
      if (status.version) this.set({ version: status.version, path: status.path }, 1);
    },
  });
  new Gauge({
    name: 'manifold_ytdlp_release_age_days',
    help: 'Days since the release of the yt-dlp the downloaders run (its versions are dates)',
    labelNames: ['version'] as const,
    registers: [registry],
    async collect() {
      const status = await ytdlpStatus(env);
      this.reset();
      if (status.version && status.age_days !== null) this.set({ version: status.version }, status.age_days);
    },
  });
  new Gauge({
    name: 'manifold_ytdlp_cookies',
    help: 'Cookies files of the YTDLP_COOKIES_DIR pools, per site: in_use, or set_aside after the site answered with a login or bot check (until the file changes)',
    labelNames: ['site', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { site, state } of cookiePools(services).states()) this.inc({ site, state });
    },
  });
}
