import t from 'tap';
import { success, successJson } from '../../engine/pipeline/envelope.js';
import { loadConfig } from '../../engine/platform/config.js';

t.test('successJson is JSON.stringify of the success envelope, byte for byte', async (t) => {
  const configs = [loadConfig({}), loadConfig({ CREATOR: 'Quote "me" \\ ✓' })];
  const results: unknown[] = [
    'text',
    '',
    'ünïcødé ✓ \u2028',
    0,
    -1.5,
    NaN,
    Infinity,
    true,
    null,
    undefined,
    () => 1,
    Symbol('s'),
    [],
    [1, undefined, () => 1],
    {},
    { a: 1, b: undefined, c: [{ d: 'e' }] },
    new Date(0),
    { toJSON: () => 'custom' },
  ];
  for (const config of configs) {
    for (const result of results) t.equal(successJson(config, result), JSON.stringify(success(config, result)), String(typeof result));
  }
});

t.test('a stack overflow (only deeply nested input causes one) is 422 too_complex, anything else unknown a 500', async (t) => {
  const { toApiError } = await import('../../engine/pipeline/envelope.js');
  const overflow = (() => {
    try {
      const recurse = (n: number): number => recurse(n + 1) + 1;
      return recurse(0);
    } catch (err) {
      return err;
    }
  })();
  t.match(toApiError(overflow), { status: 422, code: 'too_complex' });
  t.match(toApiError(new RangeError('Invalid array length')), { status: 500, code: 'internal_error' });
});
