import fs from 'node:fs';
import t from 'tap';
import { code } from '../../engine/kinds/adapters/code.js';
import { checkAdapterConfig } from '../../engine/pipeline/endpoint-registry.js';
import { handlerFile } from '../../engine/kinds/handlers/load.js';
import { EngineScope } from '../../engine/platform/scope.js';
import type { AdapterSetup, Call } from '../../engine/contract/call.js';
import type { Endpoint } from '../../engine/core/manifest-types.js';

/** One configuration for every setup here: its engine scope holds the one code pool, closed at the end. */
const config = { env: {} };
const scope = new EngineScope();
t.teardown(() => scope.close());

const endpoint = (extra: Partial<Endpoint> = {}) =>
  ({
    file: 'tools/x.yaml',
    path: '/api/tools/x',
    response: 'json',
    adapter: { kind: 'code', config: { handler: 'tools/reverse' } },
    limits: {},
    ...extra,
  }) as unknown as Endpoint;
const call = (params: Record<string, unknown>) => ({ params, signal: new AbortController().signal }) as unknown as Call;
const setup = (extra: Partial<Endpoint> = {}) =>
  ({
    endpoint: endpoint({ cost: 'cpu', ...extra }),
    config,
    scope,
    files: { put: async (data: Buffer) => ({ url: `http://files/${data.length}`, size: data.length, sha256: 'h' }) },
  }) as unknown as AdapterSetup;

t.test("an endpoint without a cost class gets its adapter kind's", async (t) => {
  const light = endpoint();
  checkAdapterConfig(light);
  t.equal(light.cost, 'light');
  const cpu = endpoint({ cost: 'cpu' });
  checkAdapterConfig(cpu);
  t.equal(cpu.cost, 'cpu', 'a declared class is kept');
});

t.test('a cost: cpu handler runs in a worker with params and options only', async (t) => {
  const file = handlerFile('tools/zz-cpu-test');
  fs.writeFileSync(
    file,
    `import { threadId } from 'node:worker_threads';
import { FileOutput } from '../../../contract/file-output.js';
import { invalidParameter } from '../../../core/errors.js';
export const where = (input) => ({ threadId, keys: Object.keys(input).sort(), options: input.options });
export const file = ({ params }) => new FileOutput(Buffer.from(params.text), 'txt', 'text/plain');
export const bad = () => { throw invalidParameter('text', 'is not acceptable'); };
export const spin = () => { for (;;); };\n`,
  );
  t.teardown(() => fs.rmSync(file, { force: true }));

  const reverse = await code.create({ handler: 'tools/reverse' }, setup());
  t.same(await reverse(call({ text: 'ab😀' })), { type: 'json', result: '😀ba' });
  const where = await code.create({ handler: 'tools/zz-cpu-test#where', options: { n: 1 } }, setup());
  const seen = ((await where(call({}))) as { result: { threadId: number; keys: string[]; options: object } }).result;
  t.not(seen.threadId, 0, 'not the main thread');
  t.same(seen.keys, ['options', 'params'], 'no call, no setup');
  t.same(seen.options, { n: 1 });
  const hosted = await code.create({ handler: 'tools/zz-cpu-test#file' }, setup());
  t.same(
    await hosted(call({ text: 'hello' })),
    { type: 'json', result: { url: 'http://files/5', size: 5, mime: 'text/plain', sha256: 'h' } },
    'a FileOutput crosses as bytes',
  );
  const bad = await code.create({ handler: 'tools/zz-cpu-test#bad' }, setup());
  await t.rejects(bad(call({})), { status: 400, code: 'invalid_parameter', details: [{ param: 'text' }] });
  const spin = await code.create({ handler: 'tools/zz-cpu-test#spin' }, setup({ limits: { taskMs: 300 } } as Partial<Endpoint>));
  await t.rejects(spin(call({})), { status: 422, code: 'too_complex' }, "the endpoint's limits.taskMs");
  t.same(await reverse(call({ text: 'xy' })), { type: 'json', result: 'yx' }, 'the pool serves on');
});
