import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findManifestFiles, loadEndpoints } from './load.js';
import { dirListing, fileStamp, Sources } from './sources.js';
import type { Endpoint } from './types.js';

/**
 * The compiled registry: parsing ~1,500 YAML files (manifests and effect templates)
 * takes seconds, reading one JSON file takes milliseconds. The first boot compiles
 * the registry into DATA_DIR; later boots reuse it while every manifest, data file,
 * template directory and the loader itself are unchanged (size + mtime + listings).
 */
interface Compiled {
  root: string;
  manifests: string[];
  files: Record<string, string>;
  dirs: Record<string, string[]>;
  endpoints: Endpoint[];
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The loader's own files: a change to how manifests are read invalidates the cache. */
const LOADER_FILES = ['load.ts', 'family.ts', 'compiled.ts', 'manifest.schema.json'].map((f) => path.join(HERE, f));

export function loadEndpointsCompiled(root: string, cacheFile: string): Endpoint[] {
  const manifests = findManifestFiles(root);
  const cached = read(cacheFile);
  if (cached && isCurrent(cached, root, manifests)) return cached.endpoints;
  const sources = new Sources();
  for (const file of LOADER_FILES) sources.file(file);
  const endpoints = loadEndpoints(root, sources);
  write(cacheFile, { root, manifests, files: sources.files, dirs: sources.dirs, endpoints });
  return endpoints;
}

function isCurrent(c: Compiled, root: string, manifests: string[]): boolean {
  return (
    c.root === root &&
    c.manifests.length === manifests.length &&
    c.manifests.every((m, i) => m === manifests[i]) &&
    Object.entries(c.files).every(([file, stamp]) => fileStamp(file) === stamp) &&
    Object.entries(c.dirs).every(([dir, names]) => dirListing(dir).join('\0') === names.join('\0'))
  );
}

function read(file: string): Compiled | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Compiled;
  } catch {
    return undefined;
  }
}

function write(file: string, compiled: Compiled): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(compiled));
    fs.renameSync(temp, file);
  } catch {
    // a read-only DATA_DIR only costs boot time
  }
}
