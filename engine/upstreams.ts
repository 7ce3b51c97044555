import fs from 'node:fs';
import path from 'node:path';
import { parseYaml } from './yaml.js';
import schema from './upstreams.schema.json' with { type: 'json' };
import type { ValidateFunction } from 'ajv';
import { ManifestError, describe, schemaAjv } from './manifest/load.js';
import type { Sources } from './manifest/sources.js';

/** An upstream as declared in endpoints/upstreams/<name>.yaml. */
export interface UpstreamSpec {
  name: string;
  description: string;
  docs?: string;
  baseUrl: { env: string; default?: string };
  requires?: string[];
  headers?: Record<string, string>;
  query?: Record<string, string>;
  timeoutMs?: number;
}

/** An upstream resolved against the configuration. */
export interface Upstream {
  spec: UpstreamSpec;
  /** Why it can't be called (unset base URL or key), or undefined. */
  missing?: string;
  baseUrl: string;
  headers: Record<string, string>;
  query: Record<string, string>;
}

let validate: ValidateFunction<UpstreamSpec> | undefined;

/** Read and check every upstream spec in dir (noting what it read for the compiled registry). */
export function loadUpstreamSpecs(dir: string, sources?: Sources): UpstreamSpec[] {
  sources?.dir(dir); // also when missing: creating it must invalidate the compiled registry
  if (!fs.existsSync(dir)) return [];
  validate ??= schemaAjv().compile<UpstreamSpec>(schema);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => {
      const rel = path.join('upstreams', f);
      sources?.file(path.join(dir, f));
      const spec = parseYaml(fs.readFileSync(path.join(dir, f), 'utf8'));
      if (!validate!(spec)) throw new ManifestError(rel, ...describe(validate!.errors![0]));
      if (`${spec.name}.yaml` !== f) throw new ManifestError(rel, 'name', `must match the file name (${f})`);
      return spec;
    });
}

const VAR = /\$\{([A-Z][A-Z0-9_]*)\}/g;

/** Fill ${VAR}s from env; undefined when any of them is unset. */
function fill(template: string, env: Readonly<Record<string, string>>): string | undefined {
  let complete = true;
  const out = template.replace(VAR, (_m, name: string) => {
    if (env[name] === undefined) complete = false;
    return env[name] ?? '';
  });
  return complete ? out : undefined;
}

function fillAll(map: Record<string, string> | undefined, env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map ?? {})) {
    const filled = fill(v, env);
    if (filled !== undefined) out[k] = filled;
  }
  return out;
}

export class UpstreamRegistry {
  private readonly byName = new Map<string, Upstream>();

  constructor(specs: UpstreamSpec[], env: Readonly<Record<string, string>>) {
    for (const spec of specs) {
      const baseUrl = (env[spec.baseUrl.env] ?? spec.baseUrl.default ?? '').replace(/\/+$/, '');
      const unset = [...(baseUrl ? [] : [spec.baseUrl.env]), ...(spec.requires ?? []).filter((v) => env[v] === undefined)];
      this.byName.set(spec.name, {
        spec,
        baseUrl,
        missing: unset.length ? `${unset.join(', ')} not set` : undefined,
        headers: fillAll(spec.headers, env),
        query: fillAll(spec.query, env),
      });
    }
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string): Upstream {
    const upstream = this.byName.get(name);
    if (!upstream) throw new Error(`unknown upstream "${name}"`);
    return upstream;
  }

  all(): Upstream[] {
    return [...this.byName.values()];
  }
}
