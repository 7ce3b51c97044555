import t from 'tap';
import { DEFAULT_TEST_API_KEY, loadConfig } from '../../engine/platform/config.js';
import { createLogger } from '../../engine/platform/log.js';
import { bootWarnings, isLoopback } from '../../engine/app/boot-warnings.js';

t.test('the default test key on a reachable address is warned about', async (t) => {
  const [warning, ...rest] = bootWarnings(loadConfig({}));
  t.match(
    warning,
    new RegExp(`"${DEFAULT_TEST_API_KEY}" is on \\(30 requests a minute for anyone\\).*0\\.0\\.0\\.0.*TEST_API_KEY set to "off"`),
    'the defaults: 0.0.0.0 and manifold-test',
  );
  t.same(rest, []);
  const lines: string[] = [];
  createLogger({ destination: (line) => lines.push(line) }).warn({ msg: warning });
  t.match(JSON.parse(lines[0]).msg, /TEST_API_KEY set to "off"/, "the log's redaction leaves the advice readable");
  t.equal(bootWarnings(loadConfig({ HOST: '192.168.1.5' })).length, 1, 'a LAN address');
  t.equal(bootWarnings(loadConfig({ HOST: '::' })).length, 1, 'every IPv6 address');
});

t.test('no warning on loopback, with the key off or with a private key', async (t) => {
  for (const host of ['127.0.0.1', '127.0.0.53', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) {
    t.ok(isLoopback(host), host);
    t.same(bootWarnings(loadConfig({ HOST: host })), [], host);
  }
  t.same(bootWarnings(loadConfig({ TEST_API_KEY: 'off' })), []);
  t.same(bootWarnings(loadConfig({ TEST_API_KEY: 'a-private-test-key' })), []);
  t.same(bootWarnings(loadConfig({ MANIFOLD_ROLE: 'worker', REDIS_URL: 'redis://127.0.0.1:6379' })), [], 'a worker takes no keys');
  for (const host of ['0.0.0.0', '10.0.0.1', 'example.com', '::']) t.notOk(isLoopback(host), host);
});
