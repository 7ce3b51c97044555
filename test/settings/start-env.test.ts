/**
 * `npm start` with settings in a `.env` file: scripts/start.mjs reads it from the working
 * directory before the engine loads its configuration, the real environment winning;
 * boot then logs what is unavailable by what would enable it, and warns about the public
 * test key on a reachable address.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import t, { type Test } from 'tap';
import { ROOT } from '../../engine/core/root.js';
import { tempDataDir } from '../support/serve.js';

interface Line {
  msg?: string;
  level?: string;
  url?: string;
  unavailable?: number;
}

/** scripts/start.mjs in `cwd`; `until` resolves with the log so far once a line matches, and rejects if the process exits first. */
function start(t: Test, cwd: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', DATA_DIR: tempDataDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => void child.kill());
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const lines = () =>
    out
      .split('\n')
      .slice(0, -1) // only whole lines: a chunk may end mid-line
      .filter((l) => l.startsWith('{')) // the log's JSON, not the build's progress when engine/ changed since the last build
      .map((l) => JSON.parse(l) as Line);
  const exited = new Promise<never>((_resolve, reject) => child.once('close', (code) => reject(new Error(`exited ${code}: ${err}`))));
  exited.catch(() => {});
  const until = (match: (line: Line) => boolean) =>
    Promise.race([
      exited,
      new Promise<Line[]>((resolve) => {
        const check = () => lines().some(match) && resolve(lines());
        check();
        child.stdout.on('data', (c) => {
          out += c;
          check();
        });
      }),
    ]);
  return { until, stderr: () => err };
}

/** The boot's lines are all written by the time the access line of a request made after `listening` is. */
async function bootLog(server: ReturnType<typeof start>): Promise<{ url: string; lines: Line[] }> {
  const { url } = (await server.until((l) => l.msg === 'listening')).find((l) => l.msg === 'listening')!;
  await fetch(`${url}/health`);
  const lines = await server.until((l) => l.url === '/health');
  return { url: url!, lines };
}

t.test('.env sets what the environment does not; the environment wins', async (t) => {
  const cwd = t.testdir({ '.env': 'HOST=127.0.0.1\nTEST_API_KEY=off\nCREATOR=from-file\n' });
  const server = start(t, cwd, { CREATOR: 'from-environment' });
  const { url, lines } = await bootLog(server);
  t.match(server.stderr(), /manifold: 2 settings from \.env/, 'HOST and TEST_API_KEY came from the file; CREATOR was already set');
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/, 'HOST from the file');
  const refused = await fetch(`${url}/checkapikey`, { headers: { 'X-API-Key': 'manifold-test' } });
  t.equal(refused.status, 401, 'TEST_API_KEY=off from the file');
  const body = (await refused.json()) as { creator: string; error: string };
  t.equal(body.error, 'invalid_api_key');
  t.equal(body.creator, 'from-environment', 'the environment wins over the file');
  t.notOk(
    lines.some((l) => l.level === 'warn' && /test key/.test(l.msg ?? '')),
    'no test-key warning: it is off, and the server listens on loopback',
  );
  const summary = lines.find((l) => l.msg?.startsWith('unavailable: '));
  t.match(summary?.msg, /^unavailable: \d+ — (set|install) /, 'the unavailable endpoints by what would enable them');
  t.ok(summary && summary.unavailable! > 0);
});

t.test('an ENV_FILE that is not there stops the start, naming it', async (t) => {
  const server = start(t, t.testdir({}), { ENV_FILE: 'missing.env' });
  await t.rejects(
    server.until(() => false),
    { message: /exited 1: manifold: cannot start: cannot read the env file .*missing\.env \(ENV_FILE\)/ },
  );
});

t.test('the public test key on every address is warned about at boot', async (t) => {
  const { lines } = await bootLog(start(t, t.testdir({}), { HOST: '0.0.0.0' }));
  t.ok(
    lines.some((l) => l.level === 'warn' && /public test key "manifold-test" is on .* listens on 0\.0\.0\.0/.test(l.msg ?? '')),
    'warned',
  );
});
