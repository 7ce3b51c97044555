import fs from 'node:fs';
import path from 'node:path';
import { ApiError, notFound } from '../../core/errors.js';
import { ROOT } from '../../core/root.js';
import { parseYaml } from '../../core/yaml.js';

/**
 * Paths that clients of the genre call and Manifold does not serve, by policy
 * (endpoints/data/not-served.yaml: adult content, watermark removal, proxy lists…).
 * A request for one still gets the ordinary 404 `not_found`, but its message says the
 * endpoint is not offered and why, so a bot's owner is not left looking for a typo.
 */
export const NOT_SERVED_FILE = path.join(ROOT, 'endpoints', 'data', 'not-served.yaml');

export interface NotServed {
  path: string;
  reason: string;
}

/** Paths compare as routes do: without case or a trailing slash. */
const routeKey = (p: string) => p.toLowerCase().replace(/\/+$/, '') || '/';

/** The list as written in the data file; throws on a malformed one. */
export function loadNotServed(file = NOT_SERVED_FILE): NotServed[] {
  const list: unknown = parseYaml(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(list)) throw new Error(`${file}: expected a list of {path, reason}`);
  return list.map((item, i) => {
    const { path: p, reason } = (item ?? {}) as Partial<NotServed>;
    if (typeof p !== 'string' || !p.startsWith('/') || typeof reason !== 'string' || !reason) {
      throw new Error(`${file}: item ${i} needs a path starting with / and a reason`);
    }
    return { path: p, reason };
  });
}

// read on the first 404, not at boot: most processes never answer one
let byPath: Map<string, string> | undefined;

/** The 404 for a request path that matched no route: the not-offered message when the path is listed. */
export function notFoundFor(requestPath: string): ApiError {
  byPath ??= new Map(loadNotServed().map((e) => [routeKey(e.path), e.reason]));
  const reason = byPath.get(routeKey(requestPath));
  if (reason) return notFound(`This endpoint is not offered by Manifold: ${reason}`);
  // a bot's owner with a mistyped or unknown path: say where the real ones are
  return notFound('No such endpoint (GET /api/admin/endpoints lists every endpoint, /docs documents them)');
}
