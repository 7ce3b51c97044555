import t from 'tap';
import { DEFAULT_TEST_API_KEY, loadConfig } from '../../engine/platform/config.js';
import { serve } from '../support/serve.js';

/** TEST_API_KEY=off: the shared test key answers 401 invalid_api_key, like any unknown key (not 429 forever, as TEST_KEY_RPM=0 does). */
const call = async (url: string, key: string) => {
  const response = await fetch(`${url}/checkapikey`, { headers: { 'X-API-Key': key } });
  return { status: response.status, body: (await response.json()) as { error?: string; result?: { tier?: string } } };
};

t.test('the default test key works until TEST_API_KEY=off', async (t) => {
  const on = await serve({ TEST_API_KEY: undefined }, { endpoints: [] });
  t.teardown(() => on.close());
  t.match(await call(on.url, DEFAULT_TEST_API_KEY), { status: 200, body: { result: { tier: 'test' } } }, 'on by default');

  const off = await serve({ TEST_API_KEY: 'off' }, { endpoints: [] });
  t.teardown(() => off.close());
  t.match(await call(off.url, DEFAULT_TEST_API_KEY), { status: 401, body: { error: 'invalid_api_key' } });
  t.match(await call(off.url, 'off'), { status: 401, body: { error: 'invalid_api_key' } }, 'the word off is no key either');
  const personal = await off.engine.keys.create({ tier: 'personal' });
  t.match(await call(off.url, personal.key), { status: 200, body: { result: { tier: 'personal' } } }, 'personal keys still work');
});

t.test('the configuration says the test key is off', async (t) => {
  t.equal(loadConfig({ TEST_API_KEY: 'off' }).testApiKey, undefined);
  t.equal(loadConfig({}).testApiKey, DEFAULT_TEST_API_KEY);
  t.equal(loadConfig({ TEST_API_KEY: 'private-value' }).testApiKey, 'private-value');
});
