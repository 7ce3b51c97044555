import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { EngineDatabase } from '../../engine/platform/db/engine-database.js';
import { createHttpClient } from '../../engine/platform/http/client.js';
import { Jobs } from '../../engine/pipeline/jobs/service.js';
import type { Endpoint } from '../../engine/core/manifest-types.js';
import type { EndpointRegistry } from '../../engine/pipeline/endpoint-registry.js';
import { silentLogger } from '../../engine/platform/log.js';
import type { FileStore } from '../../engine/platform/storage/files.js';
import { startRedisServer } from '../limits/redis-server.js';
import { tempDataDir } from '../support/serve.js';

/**
 * BullMQ waits for Redis forever; a submission must not. With Redis frozen (the port
 * accepts, nothing answers) async=true answers 503 after ADD_TIMEOUT_MS, and the job
 * that could not be queued is recorded failed, so it does not count against its key.
 */
t.test('a submission while Redis does not answer fails with 503 and leaves no pending job', async (t) => {
  const redis = await startRedisServer(t, t.testdir());
  if (!redis) throw new Error('redis-server is not installed: apt-get install -y redis-server');
  const config = loadConfig({ REDIS_URL: redis.url, DATA_DIR: tempDataDir(), MANIFOLD_ROLE: 'api', ALLOW_PRIVATE_URLS: '1' });
  const database = new EngineDatabase(config);
  const jobs = new Jobs({ config, database, registry: {} as EndpointRegistry, files: {} as FileStore, http: createHttpClient(config), logger: silentLogger });
  t.teardown(async () => {
    redis.thaw();
    await jobs.close();
    await database.close();
  });
  const submission = {
    endpoint: { id: 'GET /api/tools/web2zip', limits: { timeoutMs: 1000 } } as Endpoint,
    principal: { keyId: 'test', tier: 'test' as const, rpm: 30 },
    params: { url: 'https://example.com/' },
  };
  const queued = await jobs.submit(submission);
  t.equal(queued.status, 'queued', 'Redis answering: queued');

  redis.freeze();
  const started = Date.now();
  await t.rejects(jobs.submit(submission), { status: 503, code: 'unavailable', headers: { 'Retry-After': '5' } });
  t.ok(Date.now() - started < 15_000, `gave up (${Date.now() - started} ms)`);
  t.equal(await jobs.store.pending('test'), 1, 'only the queued job is pending');
  t.same(await jobs.store.counts(), { queued: 1, active: 0, completed: 0, failed: 1, cancelled: 0 }, 'the other is recorded failed');
});
