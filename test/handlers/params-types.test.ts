import fs from 'node:fs';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app.js';
import { loadEndpoints } from '../../engine/manifest/load.js';
import { handlerParamTypes, PARAMS_FILE } from '../../scripts/handler-params.js';

t.test('the committed handler param types are what the manifests declare (npm run build regenerates them)', async (t) => {
  const generated = await handlerParamTypes(loadEndpoints(ENDPOINTS_DIR));
  t.equal(fs.readFileSync(PARAMS_FILE, 'utf8'), generated);
  t.match(generated, /"tools\/reverse": \{\n\s+text: string\n\s+\}/, 'a required string param');
  t.match(generated, /\n\s+text: string\n\s+algorithm: \("md5" \|/, 'a param with a default is always present (tools/hash)');
  t.match(generated, /"tools\/hash": \(\{\n\s+text: string\n\s+\} \| \{/, 'a handler behind manifests with different params: their union');
});
