import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import { notFound } from '../errors.js';
import { ROOT } from '../root.js';
import { parseYaml } from '../yaml.js';

/**
 * Base URLs named for the genre's hosts: `/as/api.gifted.co.ke/api/tools/remini` is
 * `/api/tools/remini` answered as that host's clients read it. The path is rewritten here,
 * before dispatch, and the host's dialect is left in `ctx.state.dialect`; an endpoint whose
 * manifest has `dialects.<dialect>` fills in those parameter values when the call does not
 * send them (pipeline/endpoint.ts). Hosts and dialects: endpoints/data/hosts.yaml.
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

const PREFIX = /^\/as\/([^/]+)(\/.*)?$/;

export function asHost(hosts: readonly HostDialect[] = loadHosts()): Middleware {
  const byHost = new Map(hosts.map((h) => [h.host, h.dialect]));
  return (ctx, next) => {
    const match = PREFIX.exec(ctx.path);
    if (!match) return next();
    const dialect = byHost.get(match[1].toLowerCase());
    if (!dialect) throw notFound(`No such host to answer as: ${match[1]} (known: ${[...byHost.keys()].join(', ')})`);
    ctx.state.dialect = dialect;
    ctx.path = match[2] ?? '/';
    return next();
  };
}
