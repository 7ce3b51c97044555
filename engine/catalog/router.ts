import type { Endpoint, HttpMethod } from '../core/manifest-types.js';

/**
 * Manifest routes. Static paths resolve with one Map lookup, so dispatch cost does not
 * grow with the registry (@koa/router tests every layer's regexp per request). The few
 * parameterised paths fall back to a scan of their own list.
 */
export type RouteMatch<T = Endpoint> = { endpoint: T; pathParams: Record<string, string> } | { allowed: string[] };

/** What the router needs of a route: manifest endpoints and built-in routes both have it. */
export interface Routable {
  method: HttpMethod;
  path: string;
  aliases: readonly string[];
  /** Also served for GET where no route of its own has that method (manifest/types.ts). */
  alsoGet?: boolean;
}

interface DynamicRoute<T> {
  method: HttpMethod;
  pattern: RegExp;
  keys: string[];
  endpoint: T;
}

/** A static path has no path params: its routes share this one. */
const NO_PATH_PARAMS: Record<string, string> = Object.freeze({});

export class EndpointRouter<T extends Routable = Endpoint> {
  /** Static paths by method, then path, each with its match made once: a lookup builds no key and no result. */
  private readonly exact = new Map<string, Map<string, RouteMatch<T>>>();
  /** Lower-cased fallback so `/api/ephoto360/HackerAvatar` finds `hackeravatar` and vice versa (null: two routes fold alike). */
  private readonly folded = new Map<string, Map<string, RouteMatch<T> | null>>();
  private readonly methods = new Map<string, Set<string>>();
  private readonly dynamic: DynamicRoute<T>[] = [];

  constructor(endpoints: readonly T[]) {
    for (const endpoint of endpoints) for (const p of [endpoint.path, ...endpoint.aliases]) this.add(endpoint, p, endpoint.method);
    // after every route's own method, so a GET endpoint of the same path always wins
    for (const endpoint of endpoints) {
      if (!endpoint.alsoGet) continue;
      for (const p of [endpoint.path, ...endpoint.aliases]) if (p.includes(':') || !this.exact.get('GET')?.has(p)) this.add(endpoint, p, 'GET');
    }
  }

  private add(endpoint: T, path: string, method: HttpMethod) {
    if (path.includes(':')) {
      const keys: string[] = [];
      const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, key: string) => {
        keys.push(key);
        return '([^/]+)';
      });
      this.dynamic.push({ method, pattern: new RegExp(`^${source}$`), keys, endpoint });
      return;
    }
    const matched = Object.freeze({ endpoint, pathParams: NO_PATH_PARAMS });
    byPath(this.exact, method).set(path, matched);
    const folded = byPath(this.folded, method);
    const lower = path.toLowerCase();
    folded.set(lower, folded.has(lower) ? null : matched);
    const methods = this.methods.get(path.toLowerCase()) ?? new Set<string>();
    methods.add(method);
    this.methods.set(path.toLowerCase(), methods);
  }

  /** The endpoint for a request, the methods the path allows (405), or undefined (404). */
  match(method: string, rawPath: string): RouteMatch<T> | undefined {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const m = method === 'HEAD' ? 'GET' : method;
    const hit = this.exact.get(m)?.get(path) ?? this.folded.get(m)?.get(path.toLowerCase());
    if (hit) return hit;
    let allowed = this.methods.get(path.toLowerCase());
    for (const route of this.dynamic) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      if (route.method === m) {
        const pathParams: Record<string, string> = {};
        route.keys.forEach((key, i) => (pathParams[key] = safeDecode(found[i + 1])));
        return { endpoint: route.endpoint, pathParams };
      }
      allowed = new Set([...(allowed ?? []), route.method]);
    }
    if (allowed) return { allowed: [...allowed].flatMap((x) => (x === 'GET' ? ['GET', 'HEAD'] : [x])) };
    return undefined;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The map of one method's paths, made on its first route. */
function byPath<V>(maps: Map<string, Map<string, V>>, method: string): Map<string, V> {
  let paths = maps.get(method);
  if (!paths) maps.set(method, (paths = new Map()));
  return paths;
}
