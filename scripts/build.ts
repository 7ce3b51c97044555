/**
 * `npm run build` (also run by `npm ci` through `prepare`, and by `npm start` when
 * engine/ changed): transpiles engine/ to JavaScript in build/engine/, compiles
 * the endpoint registry into build/registry.json and bundles the web console into
 * build/console/, so a start runs plain JavaScript
 * from a checked registry instead of TypeScript through tsx and ~1,500 YAML files.
 * Types are not checked here (`npm run typecheck` does that).
 */
import fs from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';
import { BUILD_DIR, ENGINE_DIR, engineSources, recordBuilt } from './engine-sources.mjs';
import { COMPILED_CATALOG, ENDPOINTS_DIR } from '../engine/app/app.js';
import { loadCompiledCatalog } from '../engine/pipeline/compiled-catalog.js';
import { writeHandlerParamTypes } from './handler-params.js';
import { writeSchemaTypes } from './schema-types.js';
import { buildConsole } from './build-console.js';

const OUT = path.join(BUILD_DIR, 'engine');
const { endpoints } = loadCompiledCatalog(ENDPOINTS_DIR, COMPILED_CATALOG);
// handlers' param types from the manifests, before the sources are listed (the file is one of them)
const typesChanged = await writeHandlerParamTypes(endpoints);
// the types of the manifest and upstream schemas (scripts/schema-types.ts), before the sources are listed too
const schemaTypesWritten = await writeSchemaTypes();
const sources = engineSources();
const wanted = new Set<string>();
let written = 0;

for (const rel of Object.keys(sources)) {
  const from = path.join(ENGINE_DIR, rel);
  const to = path.join(OUT, rel.replace(/\.ts$/, '.js'));
  wanted.add(to);
  const content = rel.endsWith('.ts') ? await transpile(from) : fs.readFileSync(from);
  if (writeIfChanged(to, content)) written++;
}
const removed = removeStale(OUT, wanted);
// the web console at /admin (console/), bundled with its libraries: nothing is fetched at run time
const consoleWritten = await buildConsole();
// the stamp last: a build that stopped half-way stays stale for `npm start`
recordBuilt(sources);
console.log(
  `build: ${Object.keys(sources).length} engine files (${written} written, ${removed} removed), ${endpoints.length} endpoints in ${path.relative(process.cwd(), COMPILED_CATALOG)}${typesChanged ? '; handler param types regenerated' : ''}${schemaTypesWritten?.length ? `; ${schemaTypesWritten.join(', ')} regenerated` : ''}; console ${consoleWritten.length ? 'bundled' : 'unchanged'}`,
);

async function transpile(file: string): Promise<string> {
  const { code } = await transform(fs.readFileSync(file, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    platform: 'node',
    target: 'node20.10', // keeps JSON import attributes
    sourcefile: file,
  });
  return code;
}

/** Unchanged outputs keep their mtime (and so the compiled registry stays current). */
function writeIfChanged(file: string, content: string | Buffer): boolean {
  const data = Buffer.from(content);
  if (fs.existsSync(file) && fs.readFileSync(file).equals(data)) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
  return true;
}

function removeStale(dir: string, keep: Set<string>): number {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !keep.has(file)) (fs.rmSync(file), count++);
  }
  return count;
}
