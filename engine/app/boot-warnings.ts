import ipaddr from 'ipaddr.js';
import { DEFAULT_TEST_API_KEY, type Config } from '../platform/config.js';
import { jobSettings } from '../pipeline/jobs/settings.js';

/**
 * What a host should hear at boot about a setting that is legal but risky. Only warnings:
 * a setting that cannot work stops the boot instead (config.ts, settings/*.ts).
 */
export function bootWarnings(config: Config): string[] {
  const warnings: string[] = [];
  // the documented key on a reachable address: anyone may spend the host's AI budget and quotas
  // (a worker takes no keys: it answers only /health and /metrics)
  if (config.testApiKey === DEFAULT_TEST_API_KEY && !isLoopback(config.host) && jobSettings(config).role !== 'worker')
    warnings.push(
      `the public test key "${DEFAULT_TEST_API_KEY}" is on (${config.testKeyRpm} requests a minute for anyone) and the server listens on ${config.host}, ` +
        // "NAME=value" would read as a secret to the log's redaction, which blanks the value
        'not only on this machine: on a public host switch it off (TEST_API_KEY set to "off") or make it private, or listen on 127.0.0.1 (HOST) behind a local proxy',
    );
  return warnings;
}

/** Does `host` accept connections from this machine only (127.0.0.0/8, ::1, localhost)? */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  const address = ipaddr.process(bare); // ::ffff:127.0.0.1 counts as IPv4 loopback
  return address.range() === 'loopback';
}
