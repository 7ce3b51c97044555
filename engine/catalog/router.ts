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

export class EndpointRouter<T extends Routable = Endpoint> {
  private readonly exact = new Map<string, T>();
  /** Lower-cased fallback so `/api/ephoto360/HackerAvatar` finds `hackeravatar` and vice versa. */
  private readonly folded = new Map<string, T | null>();
  private readonly methods = new Map<string, Set<string>>();
  private readonly dynamic: DynamicRoute<T>[] = [];

  constructor(endpoints: readonly T[]) {
    for (const endpoint of endpoints) for (const p of [endpoint.path, ...endpoint.aliases]) this.add(endpoint, p, endpoint.method);
    // after every route's own method, so a GET endpoint of the same path always wins
    for (const endpoint of endpoints) {
      if (!endpoint.alsoGet) continue;
      for (const p of [endpoint.path, ...endpoint.aliases]) if (p.includes(':') || !this.exact.has(`GET ${p}`)) this.add(endpoint, p, 'GET');
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
    this.exact.set(`${method} ${path}`, endpoint);
    const folded = `${method} ${path.toLowerCase()}`;
    this.folded.set(folded, this.folded.has(folded) ? null : endpoint);
    const methods = this.methods.get(path.toLowerCase()) ?? new Set<string>();
    methods.add(method);
    this.methods.set(path.toLowerCase(), methods);
  }

  /** The endpoint for a request, the methods the path allows (405), or undefined (404). */
  match(method: string, rawPath: string): RouteMatch<T> | undefined {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const m = method === 'HEAD' ? 'GET' : method;
    const hit = this.exact.get(`${m} ${path}`) ?? this.folded.get(`${m} ${path.toLowerCase()}`);
    if (hit) return { endpoint: hit, pathParams: {} };
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
