import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../core/root.js';
import { parseYaml } from '../core/yaml.js';

/**
 * The genre's hosts Manifold answers as, and each one's dialect (endpoints/data/hosts.yaml):
 * manifests name dialects (checked when they load), and `/as/<host>` base URLs select one
 * (pipeline/as-host.ts).
 */
export const HOSTS_FILE = path.join(ROOT, 'endpoints', 'data', 'hosts.yaml');

export interface HostDialect {
  host: string;
  dialect: string;
}

/** The list as written; throws on a malformed one. */
export function loadHosts(file = HOSTS_FILE): HostDialect[] {
  const list: unknown = parseYaml(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(list)) throw new Error(`${file}: expected a list of {host, dialect}`);
  return list.map((item, i) => {
    const { host, dialect } = (item ?? {}) as Partial<HostDialect>;
    if (typeof host !== 'string' || !/^[a-z0-9.-]+$/.test(host) || typeof dialect !== 'string' || !/^[a-z0-9-]+$/.test(dialect)) {
      throw new Error(`${file}: item ${i} needs a host (lower-case name) and a dialect`);
    }
    return { host, dialect };
  });
}

/** The dialect names manifests may use. */
export const dialectNames = (hosts = loadHosts()) => new Set(hosts.map((h) => h.dialect));
