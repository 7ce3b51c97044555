import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { createLogger, serializeError } from '../engine/platform/log.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function collect(level?: string) {
  const lines: string[] = [];
  const logger = createLogger({ level, destination: (line) => lines.push(line) });
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, parsed };
}

t.test('one JSON object per line, level by name, ISO time', async (t) => {
  const { logger, lines, parsed } = collect();
  logger.info({ requestId: 'r1', method: 'GET', url: '/api/fun/quote?apikey=[redacted]', status: 200, ms: 1.5 });
  t.equal(lines.length, 1);
  t.notMatch(lines[0], /\n/);
  const [line] = parsed();
  t.same(Object.keys(line!), ['level', 'time', 'requestId', 'method', 'url', 'status', 'ms']);
  t.match(line, { level: 'info', requestId: 'r1', method: 'GET', status: 200, ms: 1.5 });
  t.match(line!.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

t.test('LOG_LEVEL chooses what is written', async (t) => {
  const warn = collect('warn');
  warn.logger.info({ msg: 'hidden' });
  warn.logger.error({ msg: 'shown' });
  t.same(
    warn.parsed().map((l) => l.msg),
    ['shown'],
  );
  const silent = collect('silent');
  silent.logger.error({ msg: 'nothing' });
  t.equal(silent.lines.length, 0);
  const debug = collect('debug');
  debug.logger.debug({ msg: 'detail' });
  t.equal(debug.lines.length, 1);

  const bad = collect('loud');
  bad.logger.info({ msg: 'still logged' });
  t.match(bad.parsed(), [
    { level: 'warn', msg: /LOG_LEVEL=loud is not one of/ },
    { level: 'info', msg: 'still logged' },
  ]);

  const saved = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'error';
  t.teardown(() => (saved === undefined ? delete process.env.LOG_LEVEL : (process.env.LOG_LEVEL = saved)));
  const fromEnv = collect();
  fromEnv.logger.info({ msg: 'hidden' });
  t.equal(fromEnv.lines.length, 0, 'the variable is read when no level is given');
});

t.test('errors keep type, message, stack and code; secrets and request options stay out', async (t) => {
  const { logger, lines, parsed } = collect();
  const KEY = 'Zq7vK2pLx9Wm4';
  // what an HTTP client's error looks like: the request options, headers included, as own properties
  const err = Object.assign(new Error(`GET https://api.x.test/v1?key=${KEY} failed`, { cause: new Error(`token=${KEY}`) }), {
    code: 'ERR_NON_2XX',
    options: { headers: { authorization: `Bearer ${KEY}` }, searchParams: `key=${KEY}` },
    response: { body: 'x'.repeat(10) },
  });
  logger.error({ requestId: 'r2', path: '/api/x', err });
  logger.error(err as never);
  t.notOk(lines.join('\n').includes(KEY), lines.join('\n'));
  const [first, second] = parsed();
  t.match(first, { level: 'error', requestId: 'r2', msg: 'GET https://api.x.test/v1?key=[redacted] failed' });
  t.match(first!.err, { type: 'Error', message: /key=\[redacted\] failed: token=\[redacted\]/, stack: /at .*log\.test\.ts/, code: 'ERR_NON_2XX' });
  t.notOk('options' in (first!.err as object) || 'response' in (first!.err as object), 'no enumerable leftovers');
  t.match(second, { err: { type: 'Error' }, msg: /\[redacted\]/ });
  t.same(serializeError('plain'), { type: 'string', message: 'plain' });
  t.same(serializeError({ apikey: KEY }), { type: 'object', message: '{"apikey":"[redacted]"}' });
});

t.test('credential headers are cut wherever a headers object is logged', async (t) => {
  const { logger, parsed } = collect();
  const headers = { authorization: 'Bearer a', 'x-api-key': 'b', cookie: 'c', 'proxy-authorization': 'd', accept: '*/*' };
  logger.info({ headers, req: { headers }, upstream: { request: { headers } } });
  const cut = { authorization: '[redacted]', 'x-api-key': '[redacted]', cookie: '[redacted]', 'proxy-authorization': '[redacted]', accept: '*/*' };
  t.same(parsed()[0], { level: 'info', time: parsed()[0]!.time, headers: cut, req: { headers: cut }, upstream: { request: { headers: cut } } });
  t.equal(headers.authorization, 'Bearer a', 'the logged object is not changed');
});

t.test('a message or field holding a secret pair is scrubbed by the last guard', async (t) => {
  const { logger, lines } = collect();
  const key = 'mf_' + 'q'.repeat(43);
  logger.info({ msg: 'calling https://x.test/?api_key=SECRETVALUE', note: `key ${key}` });
  t.notMatch(lines[0], /SECRETVALUE|mf_q/);
  t.doesNotThrow(() => JSON.parse(lines[0]!));
});

t.test('stdout is written synchronously: every line, in order, even on an immediate exit', async (t) => {
  const script = `
    import { createLogger } from './engine/platform/log.ts';
    const log = createLogger({ level: 'info' });
    for (let i = 0; i < 2000; i++) log.info({ i });
    process.exit(0);
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  t.equal(child.status, 0, child.stderr);
  const numbers = child.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { i: number }).i);
  t.equal(numbers.length, 2000);
  t.ok(
    numbers.every((n, i) => n === i),
    'in order',
  );
});
