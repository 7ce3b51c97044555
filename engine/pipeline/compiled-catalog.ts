import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findManifestFiles, loadEndpoints } from '../catalog/load.js';
import { dirListing, fileStamp, Sources } from '../catalog/sources.js';
import type { Endpoint } from '../core/manifest-types.js';
import { loadUpstreamSpecs, type UpstreamSpec } from '../catalog/upstreams.js';
import { ADAPTERS } from '../kinds/adapters/index.js';
import { checkAdapterConfig } from './endpoint-registry.js';

/**
 * The compiled registry: parsing and checking ~1,500 YAML files (manifests, effect
 * templates, upstream specs) takes seconds, reading one JSON file takes milliseconds.
 * `npm run build` (or the first boot) compiles it; later boots reuse it while every
 * manifest, data file, template directory and upstream spec, the loader itself and
 * the adapters' config schemas are unchanged (size + mtime + listings + a digest).
 * Adapter configs are checked while compiling (which also fills in their defaults).
 */
export interface CompiledCatalog {
  endpoints: Endpoint[];
  upstreams: UpstreamSpec[];
}

interface Stored extends CompiledCatalog {
  root: string;
  manifests: string[];
  files: Record<string, string>;
  dirs: Record<string, string[]>;
  adapterSchemas: string;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** .ts under tsx, .js when built: the loader's own files, whose change invalidates the cache. */
const EXT = path.extname(fileURLToPath(import.meta.url));
const LOADER_FILES = [
  `../catalog/load${EXT}`,
  `../catalog/family${EXT}`,
  `../catalog/mappings${EXT}`,
  `../catalog/expressions${EXT}`,
  `compiled-catalog${EXT}`,
  '../catalog/manifest.schema.json',
  `../catalog/upstreams${EXT}`,
  '../catalog/upstreams.schema.json',
].map((f) => path.join(HERE, f));

export function loadCompiledCatalog(root: string, cacheFile: string): CompiledCatalog {
  const manifests = findManifestFiles(root);
  const adapterSchemas = adapterSchemasDigest();
  const cached = read(cacheFile);
  if (cached && cached.adapterSchemas === adapterSchemas && isCurrent(cached, root, manifests)) return cached;
  const sources = new Sources();
  for (const file of LOADER_FILES) sources.file(file);
  const endpoints = loadEndpoints(root, sources);
  for (const endpoint of endpoints) checkAdapterConfig(endpoint);
  const upstreams = loadUpstreamSpecs(path.join(root, 'upstreams'), sources);
  write(cacheFile, { root, manifests, files: sources.files, dirs: sources.dirs, adapterSchemas, endpoints, upstreams });
  return { endpoints, upstreams };
}

function adapterSchemasDigest(): string {
  const schemas = [...ADAPTERS.values()].map((kind) => [kind.kind, kind.cost, kind.configSchema]);
  return crypto.createHash('sha256').update(JSON.stringify(schemas)).digest('hex');
}

function isCurrent(c: Stored, root: string, manifests: string[]): boolean {
  return (
    c.root === root &&
    c.manifests.length === manifests.length &&
    c.manifests.every((m, i) => m === manifests[i]) &&
    Object.entries(c.files).every(([file, stamp]) => fileStamp(file) === stamp) &&
    Object.entries(c.dirs).every(([dir, names]) => dirListing(dir).join('\0') === names.join('\0'))
  );
}

function read(file: string): Stored | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Stored;
  } catch {
    return undefined;
  }
}

function write(file: string, compiled: Stored): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(compiled));
    fs.renameSync(temp, file);
  } catch {
    // a read-only tree only costs boot time
  }
}
