/**
 * Integer settings are read one strict way (engine/platform/settings/int.ts): a typo in any of
 * them stops the boot with a message naming the variable, never silently means the
 * default — including the pools' sizes, which are used only when a pool first starts.
 */
import os from 'node:os';
import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { createEngine } from '../../engine/app/app.js';
import { cpuPool, DEFAULT_TASK_MS } from '../../engine/kinds/handlers/cpu-pool.js';
import { renderPool } from '../../engine/features/effects/shared.js';
import { silentLogger } from '../../engine/platform/log.js';
import { tempDataDir } from '../support/serve.js';
import { EngineScope } from '../../engine/platform/scope.js';

/** Typos an operator makes, and forms Number() would take but an integer setting should not. */
const TYPOS = ['four', '-1', '1.5', '1e3', '0x10', '12abc'];

const loadConfigChecked = ['PORT', 'TEST_KEY_RPM', 'PERSONAL_KEY_RPM', 'UPLOAD_MAX_BYTES', 'BODY_MAX_BYTES', 'HEADERS_TIMEOUT_MS'];
const positive = [
  'TEST_KEY_MAX_JOBS',
  'TEST_KEY_DAILY',
  'CPU_THREADS',
  'CPU_QUEUE',
  'CPU_TASK_MS',
  'CPU_TASK_MEMORY_MB',
  'EFFECTS_THREADS',
  'EFFECTS_QUEUE',
  'ENHANCE_MAX_PIXELS',
];

t.test('loadConfig refuses a bad integer, naming the variable and what is allowed', async (t) => {
  for (const name of [...loadConfigChecked, ...positive])
    for (const value of TYPOS)
      t.throws(() => loadConfig({ [name]: value }), { message: `${name} must be ${allowed(name)}, got "${value}"` }, `${name}=${value}`);
  for (const name of positive) t.throws(() => loadConfig({ [name]: '0' }), { message: new RegExp(`^${name} must be a positive integer`) }, `${name}=0`);
});

function allowed(name: string): string {
  if (loadConfigChecked.includes(name)) return 'a non-negative integer';
  return name === 'TEST_KEY_MAX_JOBS' ? 'a positive integer' : 'a positive integer (or unset)';
}

t.test('pool sizes: unset keeps the defaults, valid values reach the pools', async (t) => {
  const defaults = loadConfig({});
  t.same(defaults.cpu, {});
  t.same(defaults.effects, {});
  t.equal(loadConfig({ CPU_THREADS: ' 3 ' }).cpu.threads, 3, 'surrounding blanks are no typo');

  const config = loadConfig({
    CPU_THREADS: '3',
    CPU_QUEUE: '5',
    CPU_TASK_MS: '700',
    CPU_TASK_MEMORY_MB: '96',
    EFFECTS_THREADS: '2',
    EFFECTS_QUEUE: '3',
    ENHANCE_MAX_PIXELS: '4096',
  });
  t.same(config.cpu, { threads: 3, queue: 5, taskMs: 700, taskMemoryMb: 96 });
  t.same(config.effects, { threads: 2, queue: 3, enhanceMaxPixels: 4096 });
  const [withConfig, withDefaults] = [
    { config, scope: new EngineScope() },
    { config: defaults, scope: new EngineScope() },
  ];
  t.teardown(() => Promise.all([withConfig.scope.close(), withDefaults.scope.close()]));
  t.equal(cpuPool(withConfig).threads, 3);
  t.equal(renderPool(withConfig).threads, 2);
  t.equal(renderPool(withConfig).maxQueue, 6, 'EFFECTS_QUEUE waiting renders per worker');
  t.equal(cpuPool(withDefaults).threads, Math.max(1, os.availableParallelism()));
  t.equal(DEFAULT_TASK_MS, 5000);
});

t.test('settings their features read later stop the boot too', async (t) => {
  for (const [name, value] of [
    ['MEDIA_QUEUE', 'eight'],
    ['MEDIA_CONCURRENCY', '0'],
    ['TEMPMAIL_MAX_MESSAGES', 'lots'],
    ['TEMPMAIL_TTL_SECONDS', '1h'],
    ['SMTP_PORT', '25x'],
    ['JOBS_CONCURRENCY', 'two'],
    ['DATABASE_TIMEOUT_MS', '5s'],
    ['GENERATED_FILES_TTL', '7d'],
  ]) {
    const config = loadConfig({ DATA_DIR: tempDataDir(), DATABASE_URL: 'postgres://127.0.0.1:9/none', [name]: value });
    t.throws(
      () => createEngine({ config, logger: silentLogger, endpoints: [], upstreamSpecs: [] }),
      { message: new RegExp(`^${name} must be `) },
      `${name}=${value}`,
    );
  }
});

t.test('MEMORY_PROFILE: small sizes every pool and cache down, a variable set on its own wins, a typo stops the boot', async (t) => {
  const MiB = 1024 * 1024;
  const defaults = loadConfig({});
  const [neural, smallNeural] = [
    { tileSide: 128, arena: true },
    { tileSide: 64, arena: false },
  ];
  t.same(defaults.memory, { profile: 'default', workerIdleMs: 2000, ocrIdleMs: 60_000, renderCacheMaxBytes: 16 * MiB, neural });
  t.equal(defaults.cache.maxBytes, 64 * 1024 * 1024);

  const small = loadConfig({ MEMORY_PROFILE: 'small' });
  t.same(small.memory, { profile: 'small', workerIdleMs: 2000, ocrIdleMs: 10_000, renderCacheMaxBytes: 4 * MiB, neural: smallNeural });
  t.equal(small.cache.maxBytes, 16 * 1024 * 1024);
  t.equal(small.cpu.threads, 1);
  t.equal(small.effects.threads, 1);
  t.equal(small.effects.upscaleThreads, 1);
  const withSmall = { config: small, scope: new EngineScope() };
  t.teardown(() => withSmall.scope.close());
  t.equal(cpuPool(withSmall).threads, 1, 'the code pool starts with one worker');
  t.equal(renderPool(withSmall).threads, 1, 'the render pool too');

  const mixed = loadConfig({ MEMORY_PROFILE: 'small', EFFECTS_THREADS: '2', WORKER_IDLE_MS: '1000', CACHE_MAX_BYTES: '1000' });
  t.equal(mixed.effects.threads, 2);
  t.equal(mixed.memory.workerIdleMs, 1000);
  t.equal(mixed.cache.maxBytes, 1000);

  t.throws(() => loadConfig({ MEMORY_PROFILE: 'tiny' }), { message: 'MEMORY_PROFILE must be one of default, small, got "tiny"' });
});
