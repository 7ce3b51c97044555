/**
 * The managed Apertium server: started on first use, translating, and stopped with every
 * pipeline process it started (they share its process group); a server that died is
 * started again by the next call.
 */
import { execFileSync } from 'node:child_process';
import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { createHttpClient } from '../../engine/platform/http/client.js';
import { liveChildren } from '../../engine/features/media/child.js';
import { apertiumFor } from '../../engine/features/translate/apertium.js';
import { describePairs, detectSource, findPair, sourcesInto } from '../../engine/features/translate/apertium-pairs.js';
import { parseLanguage } from '../../engine/features/translate/languages.js';
import { EngineScope } from '../../engine/platform/scope.js';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve, TEST_KEY } from '../support/serve.js';
import path from 'node:path';

const config = loadConfig({ PATH: process.env.PATH!, DATA_DIR: '/tmp/manifold-apertium-test', LOG_REQUESTS: '0' });
const http = createHttpClient(config);
const scope = new EngineScope();
const server = apertiumFor(scope, config, http);
const signal = new AbortController().signal;
t.teardown(() => scope.close());

/** Pids in the process group led by `pid` (APY and its pipelines). */
const group = (pid: number): number[] =>
  execFileSync('ps', ['-o', 'pid=', '-g', String(pid)], { encoding: 'utf8' })
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);

const state = (pid: number): string => {
  try {
    return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return ''; // ps exits 1 when there is no such process
  }
};

t.test('pairs and pair choice', async (t) => {
  const pairs = await server.pairs(signal);
  t.match(describePairs(pairs), /ca→en.*en→ca.*en→es.*es→en.*es→pt.*pt→es/);
  t.same(findPair(pairs, 'eng', parseLanguage('es')), { from: 'eng', to: 'spa' });
  t.same(findPair(pairs, 'spa', parseLanguage('pt-BR')), { from: 'spa', to: 'por_BR' }, 'the regional variant when installed');
  t.equal(findPair(pairs, 'eng', parseLanguage('fr')), undefined);
  t.same(sourcesInto(pairs, parseLanguage('es')).sort(), ['eng', 'por']);
  t.equal(await detectSource('¿Dónde está la biblioteca municipal?', ['eng', 'por', 'spa']), 'spa');
  t.equal(await detectSource('Where is the public library?', ['eng', 'por', 'spa']), 'eng');
});

t.test('translates, and stops with every pipeline process', async (t) => {
  const text = await server.translate('I like green apples.', { from: 'eng', to: 'spa' }, signal, 20_000);
  t.equal(text, 'Me gustan las manzanas verdes.');
  const apy = liveChildren();
  t.equal(apy.length, 1, 'one managed child: apertium-apy');
  const members = group(apy[0]);
  t.ok(members.length > 3, `APY and its eng-spa pipeline share a process group (${members.length} processes)`);
  await server.close();
  // dead: gone, or a zombie where PID 1 does not reap orphans (as in some containers)
  for (const pid of members) t.match(state(pid), /^(|Z.*)$/, `process ${pid} is not running`);
});

t.test('a server that died is started again', async (t) => {
  await server.translate('Hello', { from: 'eng', to: 'spa' }, signal, 20_000);
  const [first] = liveChildren();
  process.kill(-first, 'SIGKILL');
  for (let i = 0; i < 40 && liveChildren().includes(first); i++) await new Promise((r) => setTimeout(r, 50));
  t.equal(await server.translate('Hello', { from: 'eng', to: 'spa' }, signal, 20_000), 'Hola');
  t.not(liveChildren()[0], first, 'a new server');
});

t.test('closing the engine stops its Apertium server and pipelines', async (t) => {
  await server.close();
  const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => e.path === '/api/tools/translate');
  const served = await serve({}, { endpoints });
  const answer = await (await fetch(`${served.url}/api/tools/translate?text=I+like+green+apples.&lang=es`, { headers: { 'x-api-key': TEST_KEY } })).json();
  t.equal(answer.result, 'Me gustan las manzanas verdes.');
  const [apy] = liveChildren();
  const members = group(apy);
  t.ok(members.length > 3, 'APY and a pipeline were running');
  await served.close();
  t.same(liveChildren(), [], 'no managed child left');
  for (const pid of members) t.match(state(pid), /^(|Z.*)$/, `process ${pid} is not running`);
});
