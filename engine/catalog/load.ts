import fs from 'node:fs';
import path from 'node:path';
import { parseYaml } from '../core/yaml.js';
import type { ValidateFunction } from 'ajv';
import metaSchema from './manifest.schema.json' with { type: 'json' };
import { familyItems, substitute } from './family.js';
import { MappingBook } from './mappings.js';
import { getRefusal } from './get-refusal.js';
import type { Endpoint, Manifest, ResultAlso } from '../core/manifest-types.js';
import { IMPLICIT_PARAMS, isImplicitParam, type ImplicitParam } from '../core/implicit-params.js';
import { dialectNames } from './hosts.js';
import type { Sources } from './sources.js';
import { describe, ManifestError } from './schema-check.js';
import { ajvFor } from '../core/ajv.js';

/** Folders under endpoints/ that hold data, not manifests. */
const NON_MANIFEST_DIRS = new Set(['fixtures', 'data', 'upstreams', 'mappings']);

// compiled on first use: a boot from the compiled registry never needs them
let validators: { manifest: ValidateFunction<Manifest>; family: ValidateFunction } | undefined;
const validatorsFor = () =>
  (validators ??= {
    manifest: ajvFor('as-written').compile<Manifest>(metaSchema),
    family: ajvFor('as-written').compile({ ...metaSchema.properties.family, definitions: metaSchema.definitions }),
  });

export function findManifestFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) {
        if (!NON_MANIFEST_DIRS.has(entry.name)) walk(path.join(dir, entry.name));
      } else if (/\.ya?ml$/.test(entry.name)) out.push(path.join(dir, entry.name));
    }
  };
  walk(root);
  return out;
}

/** Parse, expand and normalise every manifest under `root`. Throws ManifestError on the first bad one. */
export function loadEndpoints(root: string, sources?: Sources): Endpoint[] {
  const endpoints: Endpoint[] = [];
  const seen = new Map<string, string>();
  const mappings = new MappingBook(sources);
  for (const file of findManifestFiles(root)) {
    const rel = path.relative(root, file);
    sources?.file(file);
    for (const endpoint of loadManifestFile(file, rel, sources, mappings)) {
      for (const p of [endpoint.path, ...endpoint.aliases]) {
        const route = `${endpoint.method} ${p}`;
        const other = seen.get(route);
        if (other) throw new ManifestError(rel, 'path', `${route} is already served by ${other}`);
        seen.set(route, rel);
      }
      endpoints.push(endpoint);
    }
  }
  return endpoints;
}

/** One manifest file (a family gives several endpoints); named mappings resolve through `mappings` (./mappings.ts). */
export function loadManifestFile(file: string, rel: string, sources?: Sources, mappings = new MappingBook(sources)): Endpoint[] {
  let raw: unknown;
  try {
    raw = parseYaml(fs.readFileSync(file, 'utf8'), { prettyErrors: true });
  } catch (err) {
    throw new ManifestError(rel, '', `invalid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const dir = path.dirname(file);
  const family = (raw as { family?: unknown } | null)?.family;
  if (family === undefined) return [normalise(check(raw, rel), rel, dir, mappings)];
  // a family template is only whole once expanded: check its family section now, each item below
  const validateFamily = validatorsFor().family;
  if (!validateFamily(family))
    throw new ManifestError(rel, ...describe({ ...validateFamily.errors![0], instancePath: `/family${validateFamily.errors![0].instancePath}` }));
  const manifest = raw as Manifest;
  let items: Record<string, unknown>[];
  try {
    items = familyItems(manifest, dir, sources);
  } catch (err) {
    throw new ManifestError(rel, 'family', (err as Error).message);
  }
  const { family: _family, ...template } = manifest;
  return items.map((item, i) => {
    let expanded: unknown;
    try {
      expanded = substitute(template, item);
    } catch (err) {
      throw new ManifestError(rel, `family[${i}]`, (err as Error).message);
    }
    return normalise(check(expanded, `${rel} [item ${i}]`), rel, dir, mappings);
  });
}

function check(raw: unknown, rel: string): Manifest {
  const validateManifest = validatorsFor().manifest;
  if (!validateManifest(raw)) throw new ManifestError(rel, ...describe(validateManifest.errors![0]));
  const manifest = raw as Manifest;
  const method = manifest.method ?? 'GET';
  for (const [name, spec] of Object.entries(manifest.params ?? {})) {
    const implicit = [name, ...(spec.aliases ?? [])].find(isImplicitParam);
    if (implicit) throw new ManifestError(rel, `params.${name}`, `${implicit} is a parameter the engine adds (engine/core/implicit-params.ts)`);
    if (spec.in === 'file' && method === 'GET') throw new ManifestError(rel, `params.${name}.in`, 'file params need POST');
    if (spec.in === 'path' && !manifest.path.includes(`:${name}`)) throw new ManifestError(rel, `params.${name}.in`, `path has no :${name} segment`);
  }
  for (const segment of manifest.path.match(/:[A-Za-z_]+/g) ?? []) {
    const name = segment.slice(1);
    if (manifest.params?.[name]?.in !== 'path') throw new ManifestError(rel, 'path', `${segment} is not declared as a path param`);
  }
  return manifest;
}

/** `results` → the whole result at `results`; `lyrics=lyrics` → the result's `lyrics` at the envelope's `lyrics`. */
function resultAlsoOf(value: string | string[], rel: string): ResultAlso[] {
  const entries = [value].flat().map((entry) => {
    const [at, from = ''] = entry.split('=');
    return { at: at.split('.'), from: from ? from.split('.') : [] };
  });
  // two entries under one key would write that key twice into the envelope
  const roots = entries.map((e) => e.at[0]);
  const twice = roots.find((root, i) => roots.indexOf(root) !== i);
  if (twice) throw new ManifestError(rel, 'resultAlso', `two entries under ${twice}: one place, one value`);
  return entries;
}

let knownDialects: Set<string> | undefined;

/** A manifest's dialects name known dialects (endpoints/data/hosts.yaml) and its own parameters only. */
function dialectsOf(m: Manifest, rel: string): Record<string, Record<string, unknown>> {
  const known = (knownDialects ??= dialectNames());
  for (const [dialect, values] of Object.entries(m.dialects!)) {
    if (!known.has(dialect)) throw new ManifestError(rel, `dialects.${dialect}`, `no such dialect (endpoints/data/hosts.yaml has ${[...known].join(', ')})`);
    for (const name of Object.keys(values)) {
      const own = Object.hasOwn(m.params ?? {}, name) || takesImplicit(m, name);
      if (!own) throw new ManifestError(rel, `dialects.${dialect}.${name}`, 'not a parameter of this endpoint');
    }
  }
  return m.dialects!;
}

/** An implicit param the endpoint takes that reaches its handler (a dialect may set `stream`, not the key or the job's settings). */
function takesImplicit(m: Manifest, name: string): boolean {
  if (!isImplicitParam(name)) return false;
  const param: ImplicitParam = IMPLICIT_PARAMS[name];
  return param.reachesHandler && param.takenBy({ response: m.response ?? 'json', async: m.async ?? false });
}

function normalise(m: Manifest, rel: string, dir: string, mappings: MappingBook): Endpoint {
  const method = m.method ?? 'GET';
  const params: Endpoint['params'] = {};
  for (const [name, spec] of Object.entries(m.params ?? {})) {
    params[name] = { ...spec, in: spec.in ?? (method === 'GET' ? 'query' : 'body'), required: spec.required ?? false, aliases: spec.aliases ?? [] };
  }
  return {
    id: `${method} ${m.path}`,
    method,
    path: m.path,
    aliases: m.aliases ?? [],
    category: m.category,
    summary: m.summary,
    description: m.description ?? m.summary,
    tags: m.tags ?? [],
    body: m.body ?? (method === 'GET' || method === 'DELETE' ? [] : ['json', 'form']),
    public: m.public ?? false,
    secretParams: Object.entries(m.params ?? {}).flatMap(([name, spec]) => (spec.secret ? [name, ...(spec.aliases ?? [])] : [])),
    params,
    alsoGet: method === 'POST' && getRefusal(params) === undefined,
    adapter: { kind: m.adapter.kind, config: mappings.resolve(m.adapter.config ?? {}, dir, rel) },
    response: m.response ?? 'json',
    async: m.async ?? false,
    ...(m.cost && { cost: m.cost }),
    resultSchema: m.resultSchema,
    ...(m.resultAlso && { resultAlso: resultAlsoOf(m.resultAlso, rel) }),
    ...(m.dialects && { dialects: dialectsOf(m, rel) }),
    limits: { timeoutMs: 15000, cacheTtl: 0, ...m.limits },
    requires: {
      env: m.requires?.env ?? [],
      bin: m.requires?.bin ?? [],
      npm: m.requires?.npm ?? [],
      ...(m.requires?.anyOf && { anyOf: m.requires.anyOf.map((a) => ({ env: a.env ?? [], bin: a.bin ?? [] })) }),
    },
    examples: m.examples,
    deprecated: m.deprecated ?? false,
    file: rel,
    dir,
  };
}
