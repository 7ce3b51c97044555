import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ignored } from './links.js';
import { code, generatedNote } from './markdown.js';

/**
 * docs/contributing/engine-map.md: every folder and top-level module of each engine layer,
 * bottom layer first, with where its tests live. The layers and their order are read from
 * the import rule (.dependency-cruiser.cjs, the `engine-is-layered` rule), the modules from
 * engine/, and a module's tests are the test folders that import it directly plus the test
 * folder named after it (test/auth/ for engine/platform/auth/), so the page follows every
 * move and every new test.
 */

interface RuleFile {
  forbidden: { name: string; from: { pathNot?: string } }[];
}

/** The layers, bottom first, as the import rule lists them. */
export function layers(root: string): string[] {
  const rules = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as RuleFile;
  const layered = rules.forbidden.find((rule) => rule.name === 'engine-is-layered')?.from.pathNot;
  const match = layered && /^\^engine\/\(([\w|-]+)\)\/$/.exec(layered);
  if (!match) throw new Error(".dependency-cruiser.cjs: no 'engine-is-layered' rule naming the layers as ^engine/(a|b|…)/");
  return match[1].split('|');
}

const walk = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    : [];

const posix = (p: string) => p.split(path.sep).join('/');

/** Checkout-relative engine module → the checkout-relative test files that import it. */
export function testImports(root: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  // test/support/ holds the tests' helpers, not tests
  for (const file of walk(path.join(root, 'test')).filter((f) => f.endsWith('.ts') && !posix(f).includes('/test/support/'))) {
    const text = fs.readFileSync(file, 'utf8');
    // static imports (not `import type`: a type is no test) and dynamic import('…')
    const specs = [
      ...[...text.matchAll(/^\s*import\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'/gm)].filter((m) => !m[1]).map((m) => m[2]),
      ...[...text.matchAll(/import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)].map((m) => m[1]),
    ];
    for (const spec of specs) {
      const target = posix(path.relative(root, path.resolve(path.dirname(file), spec))).replace(/\.js$/, '.ts');
      if (!target.startsWith('engine/')) continue;
      if (!out.has(target)) out.set(target, new Set());
      out.get(target)!.add(posix(path.relative(root, file)));
    }
  }
  return out;
}

/** Where a test file is listed: its folder under test/ (`test/auth/`), or itself at test/'s top. */
const testPlace = (file: string) => {
  const parts = file.split('/');
  return parts.length > 2 ? `${parts.slice(0, 2).join('/')}/` : file;
};

export function engineMapDoc(root: string): string {
  const imports = testImports(root);
  const testFiles = walk(path.join(root, 'test'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => posix(path.relative(root, f)));
  const lines = [
    '# Engine map',
    '',
    generatedNote('npm run docs:generate', 'the layers of .dependency-cruiser.cjs, the files under engine/ and the imports of test/'),
    '',
    'Every folder and top-level module of each layer of `engine/`, bottom layer first (a module imports only from its own',
    'layer and those before it in this list), with where its tests live: *named after it* is the test folder or file of the',
    'same name (`test/auth/` for `engine/platform/auth/`, `…/circuit-breaker.test.ts` for `circuit-breaker.ts`); *imported by*',
    'lists the test folders that import one of its modules directly (a test may import a module only to set up an engine).',
    'A module with neither is exercised only through the whole engine: by the conformance suite (`test/conformance.test.ts`),',
    'which calls every endpoint, and the HTTP tests of the features that use it. What each layer is for:',
    '[Architecture](architecture.md).',
    '',
  ];
  // what the build generates (git ignores it) is not a module of the checkout: the map is the same built or not
  const generated = ignored(
    root,
    walk(path.join(root, 'engine')).map((f) => posix(path.relative(root, f))),
  );
  for (const layer of layers(root)) {
    const dir = path.join(root, 'engine', layer);
    const entries = (fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [])
      .filter((e) => !generated.has(`engine/${layer}/${e.name}`))
      .sort((a, b) => a.name.localeCompare(b.name));
    lines.push(`## ${layer}`, '', '| module | named after it | imported by |', '|---|---|---|');
    for (const entry of entries) {
      if (!entry.isDirectory() && !/\.(ts|json)$/.test(entry.name)) continue;
      const rel = `engine/${layer}/${entry.name}${entry.isDirectory() ? '/' : ''}`;
      const modules = entry.isDirectory()
        ? walk(path.join(dir, entry.name))
            .map((f) => posix(path.relative(root, f)))
            .filter((f) => !generated.has(f))
        : [rel];
      const stem = entry.name.replace(/\.(ts|json)$/, '');
      const named = entry.isDirectory()
        ? fs.existsSync(path.join(root, 'test', stem))
          ? [`test/${stem}/`]
          : []
        : testFiles.filter((f) => path.posix.basename(f) === `${stem}.test.ts`);
      const importers = new Set<string>();
      for (const module of modules) for (const test of imports.get(module) ?? []) importers.add(testPlace(test));
      const list = (items: Iterable<string>) => [...items].sort().map(code).join(', ') || '—';
      lines.push(`| ${code(rel)} | ${list(named)} | ${list(importers)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
