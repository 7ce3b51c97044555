/**
 * The typed client as the package a bot installs: built (clients/typescript/build.ts) against a
 * live instance's /openapi.json, packed by `npm pack`, unpacked into a project outside this
 * checkout, and used from there by the two example bots run with plain `node` (no tsx, no
 * loader): examples/bot.mjs through `import`, examples/bot.cjs through `require`. Then
 * TypeScript consumers of both formats are type-checked against the packed declarations.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { ROOT } from '../../engine/app/app.js';
import { buildClient } from '../../clients/typescript/build.js';
import { documentUrl, generateTypes } from '../../clients/typescript/generate.js';
import { TEST_KEY } from '../support/serve.js';
import { serveClientEndpoints, tscPath } from './support.js';

const run = promisify(execFile);
const CLIENT = path.join(ROOT, 'clients', 'typescript');

// async children throughout: the instance the bots call answers from this process's event loop
const served = await serveClientEndpoints();
t.teardown(() => served.close());

const work = t.testdir();
const app = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-bot-')); // outside the checkout: only its own node_modules resolve
t.teardown(() => fs.rmSync(app, { recursive: true, force: true }));

// the package directory as a maintainer has it: package.json, README, LICENSE, examples, then the build
const pkg = path.join(work, 'pkg');
fs.mkdirSync(pkg);
for (const file of ['package.json', 'README.md', 'LICENSE']) fs.copyFileSync(path.join(CLIENT, file), path.join(pkg, file));
fs.cpSync(path.join(CLIENT, 'examples'), path.join(pkg, 'examples'), { recursive: true });
buildClient(await generateTypes(documentUrl(served.url)), path.join(pkg, 'dist'));

const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: pkg });
const [{ filename, files }] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
const installed = path.join(app, 'node_modules', '@manifold', 'client');
fs.mkdirSync(installed, { recursive: true });
await run('tar', ['xzf', path.join(work, filename), '-C', installed, '--strip-components=1']);
// the package's one dependency, as npm would install it beside the package
fs.symlinkSync(path.join(ROOT, 'node_modules', 'openapi-fetch'), path.join(app, 'node_modules', 'openapi-fetch'), 'dir');
for (const bot of ['bot.mjs', 'bot.cjs']) fs.copyFileSync(path.join(installed, 'examples', bot), path.join(app, bot));

/** `node <file>` in the bot's project, with a plain environment: no NODE_OPTIONS, so no tsx. */
async function node(file: string): Promise<string> {
  const { NODE_OPTIONS: _, ...env } = process.env;
  const { stdout } = await run(process.execPath, [file], { cwd: app, env: { ...env, MANIFOLD_URL: served.url, MANIFOLD_API_KEY: TEST_KEY } });
  return stdout;
}

t.test('the tarball holds the built formats, the types and the examples, not the sources', async (t) => {
  const paths = files.map((f) => f.path).sort();
  for (const expected of [
    'dist/esm/index.js',
    'dist/esm/index.d.ts',
    'dist/cjs/index.js',
    'dist/cjs/index.d.ts',
    'dist/schema.d.ts',
    'README.md',
    'LICENSE',
    'examples/bot.mjs',
    'examples/bot.cjs',
  ])
    t.ok(paths.includes(expected), expected);
  t.same(
    paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts')),
    [],
    'no TypeScript sources',
  );
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
  t.notOk(manifest.private, 'publishable');
  t.match(manifest, { name: '@manifold/client', license: 'MIT', dependencies: { 'openapi-fetch': String } });
});

t.test('bot.mjs imports the package as an ES module and calls the instance', async (t) => {
  const out = await node('bot.mjs');
  t.match(out, /^quote: ".+" — \S.*$/m);
  t.match(out, /^reverse: tob olleh$/m);
  t.match(out, /^without text: 400 missing_parameter$/m);
});

t.test('bot.cjs requires the package as CommonJS and calls the instance', async (t) => {
  const out = await node('bot.cjs');
  t.match(out, 'jsonformat:\n{\n  "bot": "ready",\n  "chats": 3\n}\n');
  t.match(out, /^key tier: test$/m);
});

t.test('TypeScript consumers of either format get the declarations, endpoint types included', async (t) => {
  const calls = `
const api = createManifoldClient({ baseUrl: 'http://localhost:3000', apiKey: 'k' });
export const reversed = async (): Promise<string | undefined> => (await api.GET('/api/tools/reverse', { params: { query: { text: 'x' } } })).data?.result;
// @ts-expect-error: text is required
export const missing = () => api.GET('/api/tools/reverse', { params: { query: {} } });
export type Quote = paths['/api/fun/quote']['get'];
`;
  fs.writeFileSync(path.join(app, 'consumer.mts'), `import { createManifoldClient, type paths } from '@manifold/client';\n${calls}`);
  fs.writeFileSync(path.join(app, 'consumer.cts'), `import { createManifoldClient, type paths } from '@manifold/client';\n${calls}`);
  fs.writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, lib: ['es2022', 'dom'], types: [] },
      files: ['consumer.mts', 'consumer.cts'],
    }),
  );
  const tsc = await run(await tscPath(), ['-p', app]).catch((err: { stdout: string; stderr: string }) => err);
  t.equal(`${tsc.stdout}${tsc.stderr}`.trim(), '', 'tsc reports nothing');
});
