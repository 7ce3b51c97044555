/** /api/tools/myip answers with the caller's address and headers, credentials blanked. */
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadManifestFile } from '../../engine/catalog/load.js';
import { serve, TEST_KEY } from '../support/serve.js';

const file = path.join(ENDPOINTS_DIR, 'tools', 'myip.yaml');
const served = await serve({}, { endpoints: loadManifestFile(file, 'tools/myip.yaml'), upstreamSpecs: [] });
t.teardown(served.close);

t.test('address, user agent and redacted headers', async (t) => {
  const res = await fetch(`${served.url}/api/tools/whoami`, {
    headers: { Authorization: `Bearer ${TEST_KEY}`, 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0', 'Accept-Language': 'fr-FR' },
  });
  const { result } = await res.json();
  t.equal(res.status, 200);
  t.equal(result.ip, '127.0.0.1');
  t.equal(result.browser.name, 'Firefox');
  t.equal(result.acceptLanguage, 'fr-FR');
  t.equal(result.headers.authorization, '[redacted]', 'the key is not echoed');
  t.notMatch(JSON.stringify(result), TEST_KEY);
});
