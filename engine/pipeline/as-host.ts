import type { Middleware } from 'koa';
import { notFound } from '../core/errors.js';
import { loadHosts, type HostDialect } from '../catalog/hosts.js';

/**
 * Base URLs named for the genre's hosts: `/as/api.gifted.co.ke/api/tools/remini` is
 * `/api/tools/remini` answered as that host's clients read it. The path is rewritten here,
 * before dispatch, and the host's dialect is left in `ctx.state.dialect`; an endpoint whose
 * manifest has `dialects.<dialect>` fills in those parameter values when the call does not
 * send them (pipeline/endpoint.ts). Hosts and dialects: endpoints/data/hosts.yaml.
 */
const PREFIX = /^\/as\/([^/]+)(\/.*)?$/;

export function asHost(hosts: readonly HostDialect[] = loadHosts()): Middleware {
  const byHost = new Map(hosts.map((h) => [h.host, h.dialect]));
  return (ctx, next) => {
    // every request passes here: most are not /as/ ones, told apart without running the pattern
    const match = ctx.path.startsWith('/as/') ? PREFIX.exec(ctx.path) : null;
    if (!match) return next();
    const dialect = byHost.get(match[1].toLowerCase());
    if (!dialect) throw notFound(`No such host to answer as: ${match[1]} (known: ${[...byHost.keys()].join(', ')})`);
    ctx.state.dialect = dialect;
    ctx.path = match[2] ?? '/';
    return next();
  };
}
