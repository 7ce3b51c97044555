/**
 * `npm run build -w @manifold/client [-- <server origin or its /openapi.json URL>]`, also run by
 * `npm pack` / `npm publish` in the workspace: the client as a package any bot installs —
 * JavaScript for `import` (dist/esm) and for `require` (dist/cjs), each beside its declarations
 * and the endpoint types (schema.d.ts) of this checkout, or of the server given.
 *
 * Built by TypeScript's own compiler, run twice (once per module format), not by a bundler:
 * the package is two small files with nothing to bundle, tsc writes the declarations exactly
 * (a bundler's declaration step would re-parse the 7.7 MB schema), and the workspace already
 * has TypeScript 5.9 for the generator. tsup is no longer maintained (its README sends users to
 * tsdown), and tsdown needs Node 22.18+ to run, which the Node 20 line cannot build with.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { documentUrl, generateTypes, localDocument } from './generate.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SOURCES = ['client.ts', 'index.ts'];
/** Each output directory's module format, told to Node (and to tsc) by a package.json of its own. */
const FORMATS = { esm: 'module', cjs: 'commonjs' } as const;

// the workspace's TypeScript 5.9 (the root's TypeScript 7 is a native binary with another CLI home)
const TSC = createRequire(path.join(HERE, 'package.json')).resolve('typescript/bin/tsc');
// @types/node is hoisted to the repository root
const TYPE_ROOTS = [path.join(HERE, '..', '..', 'node_modules', '@types')];

/**
 * Writes `<outDir>/esm` and `<outDir>/cjs` from the sources, and `<outDir>/schema.d.ts` from
 * `schema` (a schema.d.ts's text, as generateTypes writes it) once for both: it is ~9 MB of
 * declarations that mean the same in either format. The sources are compiled in a staging
 * directory inside the workspace, so openapi-fetch and @types/node resolve as for the sources.
 */
export function buildClient(schema: string, outDir: string): void {
  const stage = fs.mkdtempSync(path.join(HERE, '.build-'));
  const src = path.join(stage, 'src');
  try {
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(stage, 'schema.d.ts'), schema);
    for (const file of SOURCES) fs.writeFileSync(path.join(src, file), besideSchema(fs.readFileSync(path.join(HERE, file), 'utf8')));
    fs.rmSync(outDir, { recursive: true, force: true });
    for (const [dir, type] of Object.entries(FORMATS)) {
      const out = path.join(outDir, dir);
      // NodeNext emits the format of the nearest package.json's "type"
      fs.writeFileSync(path.join(src, 'package.json'), JSON.stringify({ type }));
      fs.writeFileSync(path.join(stage, 'tsconfig.json'), JSON.stringify(tsconfig(src, out)));
      const tsc = spawnSync(process.execPath, [TSC, '-p', stage], { encoding: 'utf8' });
      if (tsc.status !== 0) throw new Error(`tsc (${dir}) failed: ${tsc.stdout}${tsc.stderr}${tsc.error?.message ?? ''}`);
      fs.writeFileSync(path.join(out, 'package.json'), `${JSON.stringify({ type })}\n`);
    }
    fs.copyFileSync(path.join(stage, 'schema.d.ts'), path.join(outDir, 'schema.d.ts'));
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/** A source's imports of the schema, pointed one directory up, where the package keeps its one copy. */
function besideSchema(source: string): string {
  return source.replaceAll("from './schema.js'", "from '../schema.js'");
}

const tsconfig = (rootDir: string, outDir: string) => ({
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    declaration: true,
    skipLibCheck: true,
    isolatedModules: true,
    types: ['node'],
    typeRoots: TYPE_ROOTS,
    rootDir,
    outDir,
  },
  files: SOURCES.map((file) => path.join(rootDir, file)),
});

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const arg = process.argv[2];
  const started = performance.now();
  const outDir = path.join(HERE, 'dist');
  buildClient(await generateTypes(arg ? documentUrl(arg) : await localDocument()), outDir);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`client: ${path.relative(process.cwd(), outDir)}/{esm,cjs,schema.d.ts} from ${arg ? documentUrl(arg).href : 'this checkout'} in ${seconds} s`);
}
