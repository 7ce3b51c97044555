import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { code } from '../../engine/kinds/adapters/code.js';
import { checkAdapterConfig } from '../../engine/pipeline/endpoint-registry.js';
import { handlerFile, loadHandler, missingHandler } from '../../engine/kinds/handlers/load.js';
import { ManifestError } from '../../engine/catalog/schema-check.js';
import type { AdapterSetup, Call } from '../../engine/contract/call.js';
import type { Endpoint } from '../../engine/core/manifest-types.js';

const endpoint = (config: Record<string, unknown>, extra: Partial<Endpoint> = {}) =>
  ({ file: 'tools/x.yaml', path: '/api/tools/x', response: 'json', adapter: { kind: 'code', config }, ...extra }) as unknown as Endpoint;
const call = (params: Record<string, unknown>) => ({ params }) as unknown as Call;

t.test('handler names map to modules under engine/kinds/handlers, mirroring the manifest', async (t) => {
  t.ok(handlerFile('tools/reverse').endsWith(path.join('engine', 'kinds', 'handlers', 'tools', 'reverse.ts')));
  t.equal(missingHandler('tools/reverse'), undefined);
  t.match(missingHandler('tools/no-such-tool'), /no handler module .*no-such-tool\.ts/);
  t.equal(typeof (await loadHandler('tools/reverse')), 'function');
  await t.rejects(loadHandler('tools/reverse#nothing'), /has no exported function "nothing"/);
});

t.test('the compile step names a missing module or a bad name by file and field', async (t) => {
  t.throws(() => checkAdapterConfig(endpoint({ handler: 'tools/no-such-tool' })), {
    name: 'ManifestError',
    file: 'tools/x.yaml',
    field: 'adapter.config.handler',
    problem: /no handler module .*no-such-tool\.ts/,
  });
  t.throws(() => checkAdapterConfig(endpoint({ handler: '../../etc/passwd' })), { name: 'ManifestError', field: 'adapter.config.handler' });
  t.throws(() => checkAdapterConfig(endpoint({ handler: 'tools/reverse', operation: 'x' })), { name: 'ManifestError' });
  t.doesNotThrow(() => checkAdapterConfig(endpoint({ handler: 'tools/reverse' })));
});

t.test('a handler value becomes result, wrapped when asked; files are hosted or streamed', async (t) => {
  const reverse = await code.create({ handler: 'tools/reverse' }, { endpoint: endpoint({}) } as AdapterSetup);
  t.same(await reverse(call({ text: 'ab😀' })), { type: 'json', result: '😀ba' });
  const wrapped = await code.create({ handler: 'tools/reverse', wrap: 'text' }, { endpoint: endpoint({}) } as AdapterSetup);
  t.same(await wrapped(call({ text: 'ab' })), { type: 'json', result: { text: 'ba' } });

  // a module of the test's own, written where handlers live, removed after
  const file = handlerFile('tools/zz-code-test');
  fs.writeFileSync(
    file,
    `import { Reply } from '../../../contract/handler.js';
import { FileOutput } from '../../../contract/file-output.js';
export const file = ({ options }) => new FileOutput(Buffer.from(options.text), 'txt', 'text/plain');
export const redirect = () => new Reply({ type: 'redirect', location: 'https://example.org/' });\n`,
  );
  t.teardown(() => fs.rmSync(file, { force: true }));
  const put = async (data: Buffer) => ({ url: `http://files/${data.length}.txt`, size: data.length, sha256: 'h' });
  const setup = { endpoint: endpoint({}), files: { put } } as unknown as AdapterSetup;
  const hosted = await code.create({ handler: 'tools/zz-code-test#file', options: { text: 'hello' } }, setup);
  t.same(await hosted(call({})), { type: 'json', result: { url: 'http://files/5.txt', size: 5, mime: 'text/plain', sha256: 'h' } });
  const bytes = await hosted(call({ stream: true }));
  t.match(bytes, { type: 'binary', contentType: 'text/plain', filename: 'x.txt' });
  t.equal((bytes as { body: Buffer }).body.toString(), 'hello');
  const urlOnly = await code.create({ handler: 'tools/zz-code-test#file', options: { text: 'hey' }, fileResult: 'url' }, setup);
  t.same(await urlOnly(call({})), { type: 'json', result: 'http://files/3.txt' });
  const redirect = await code.create({ handler: 'tools/zz-code-test#redirect' }, setup);
  t.same(await redirect(call({})), { type: 'redirect', location: 'https://example.org/' });
});
