/** Boot stays fast with S3 configured: the AWS SDK is imported on the first storage call, not at boot. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';

// a resolve hook in the child that refuses every @aws-sdk import, so any load shows as an error
const refuseSdk = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@aws-sdk/')) throw new Error('AWS SDK imported: ' + specifier);
  return next(specifier, context);
}`;
const hook = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(refuseSdk)}`)});`;

const child = `
import { loadConfig } from './engine/platform/config.ts';
import { createEngine } from './engine/app/app.ts';
import { silentLogger } from './engine/platform/log.ts';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-lazy-'));
const config = loadConfig({ DATA_DIR: dataDir, S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9', LOG_REQUESTS: '0' });
const engine = createEngine({ config, endpoints: [], logger: silentLogger });
console.log('booted');
await engine.files.put(Buffer.from('x'), { ext: 'txt' }).catch((error) => console.log(error.message));
await engine.close();
fs.rmSync(dataDir, { recursive: true, force: true });
`;

t.test('createEngine with S3_BUCKET imports no AWS SDK module; the first put does', async (t) => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', `data:text/javascript,${encodeURIComponent(hook)}`, '--input-type=module', '-e', child],
    {
      cwd: new URL('../..', import.meta.url),
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    },
  );
  t.same(stdout.trim().split('\n'), ['booted', 'AWS SDK imported: @aws-sdk/client-s3']);
});
