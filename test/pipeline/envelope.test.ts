import t from 'tap';
import { success, SuccessEnvelope } from '../../engine/pipeline/envelope.js';
import { loadConfig } from '../../engine/platform/config.js';

t.test("SuccessEnvelope's json is JSON.stringify of the success envelope, byte for byte", async (t) => {
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
    const envelope = new SuccessEnvelope(config);
    for (const result of results) {
      const expected = JSON.stringify(success(config, result));
      t.equal(envelope.json(result), expected, String(typeof result));
      // an adapter that holds the result's JSON already (a data set's item) gets the same bytes
      const known = JSON.stringify(result);
      if (known !== undefined) t.equal(envelope.json(result, undefined, known), expected, `${String(typeof result)}, serialised before`);
    }
  }
});

t.test('a result serialised before is sent as it is, not serialised again', async (t) => {
  const config = loadConfig({});
  const envelope = new SuccessEnvelope(config);
  const result = { quote: 'q', author: 'a' };
  // the text given is what goes out (the adapter vouches for it being the result's JSON)
  t.equal(envelope.json(result, undefined, '{"quote":"q","author":"a"}'), JSON.stringify(success(config, result)));
  t.equal(envelope.json(result, undefined, '"held"'), JSON.stringify(success(config, 'held')));
  t.equal(
    envelope.json(result, [{ at: ['results'], from: [] }], '"held"'),
    JSON.stringify({ ...success(config, 'held'), results: 'held' }),
    'resultAlso repeats the same text',
  );
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
