import type { Endpoint } from '../../engine/core/manifest-types.js';
import type { UpstreamSpec } from '../../engine/catalog/upstreams.js';
import { startFixtureUpstream, type FixtureUpstream } from './fixture-upstream.js';
import { startFixtureDns } from './fixture-dns.js';
import { startFixtureWhois } from './fixture-whois.js';
import type { FixtureServer } from './fixture-book.js';
import type { EngineOptions } from '../../engine/app/app.js';
import { serve, type Served } from './serve.js';

/**
 * Where manifest examples run offline: the local HTTP upstream (every upstream's base URL
 * points at it, every key it requires is set to a placeholder), the DNS and WHOIS fixture
 * servers, and one engine per distinct example env (most share the default one).
 */
export interface FixtureEnvironment {
  upstream: FixtureUpstream;
  dns: FixtureServer;
  whois: FixtureServer;
  engineFor(env?: Record<string, string>): Promise<Served>;
  close(): Promise<void>;
}

/**
 * The variables that keep an engine on this host: every upstream's base URL at the
 * fixture upstream, every key it requires set to a placeholder, DNS and WHOIS at the
 * fixture servers (an example that unsets WHOIS_SERVER runs the IANA discovery against
 * the fixture server). Also what engine processes started by tests get (test/fleet).
 */
export function offlineEnv(
  upstreamSpecs: UpstreamSpec[],
  servers: { upstream: FixtureUpstream; dns: FixtureServer; whois: FixtureServer },
): Record<string, string> {
  const env: Record<string, string> = { DNS_SERVERS: servers.dns.address, WHOIS_SERVER: servers.whois.address, WHOIS_IANA_SERVER: servers.whois.address };
  for (const spec of upstreamSpecs) {
    // dns and whois upstreams are the servers above (their variables are set there)
    if (spec.baseUrl) env[spec.baseUrl.env] = servers.upstream.base(spec.name);
    for (const name of spec.requires ?? []) env[name] = `fixture-${name.toLowerCase()}`;
  }
  return env;
}

/**
 * `extraEnv` goes into every engine's environment (e.g. DATABASE_URL to run on PostgreSQL, or
 * ALLOW_PRIVATE_URLS unset); `engineOptions` into every engine (e.g. the SSRF sweep's guard).
 */
export async function startFixtureEnvironment(
  endpoints: Endpoint[],
  upstreamSpecs: UpstreamSpec[],
  extraEnv: Record<string, string | undefined> = {},
  engineOptions: Pick<EngineOptions, 'guard'> = {},
): Promise<FixtureEnvironment> {
  const upstream = await startFixtureUpstream();
  const dns = await startFixtureDns();
  const whois = await startFixtureWhois();
  const baseEnv = { ...offlineEnv(upstreamSpecs, { upstream, dns, whois }), ...extraEnv };
  const engines = new Map<string, Promise<Served>>();
  return {
    upstream,
    dns,
    whois,
    engineFor(env = {}) {
      const key = JSON.stringify(Object.entries(env).sort());
      if (!engines.has(key)) engines.set(key, serve({ ...baseEnv, ...env }, { ...engineOptions, endpoints, upstreamSpecs }));
      return engines.get(key)!;
    },
    async close() {
      for (const served of engines.values()) await (await served).close();
      await Promise.all([upstream.close(), dns.close(), whois.close()]);
    },
  };
}
