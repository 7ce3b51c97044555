import t from 'tap';
import { success, successJson } from '../../engine/envelope.js';
import { loadConfig } from '../../engine/config.js';

t.test('successJson is JSON.stringify of the success envelope, byte for byte', async (t) => {
  const configs = [loadConfig({}), loadConfig({ CREATOR: 'Quote "me" \\ ✓' })];
  const results: unknown[] = [
    'text', '', 'ünïcødé ✓ \u2028', 0, -1.5, NaN, Infinity, true, null, undefined, () => 1, Symbol('s'),
    [], [1, undefined, () => 1], {}, { a: 1, b: undefined, c: [{ d: 'e' }] }, new Date(0), { toJSON: () => 'custom' },
  ];
  for (const config of configs) {
    for (const result of results) t.equal(successJson(config, result), JSON.stringify(success(config, result)), String(typeof result));
  }
});
