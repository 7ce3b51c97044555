/** A client that leaves mid-call stops the adapter's upstream work (the lazily made signal is still wired to the socket). */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { loadEndpoints } from '../../engine/catalog/load.js';

const dir = tempDataDir('manifold-disconnect-');
fs.writeFileSync(
  path.join(dir, 'hang.yaml'),
  `
path: /api/test/hang
category: search
summary: Calls an upstream that never answers
params:
  q: { required: true, schema: { type: string }, description: terms }
adapter: { kind: http, config: { providers: [{ upstream: local, path: /hang, result: items }] } }
limits: { timeoutMs: 600000 }
examples: [{ params: { q: x }, expect: {} }]
`,
);

t.test('the upstream request is aborted when the client disconnects', async (t) => {
  t.setTimeout(30_000); // a hang here means the disconnect was not noticed
  let received: () => void;
  const arrived = new Promise<void>((resolve) => (received = resolve));
  let closed: () => void;
  const upstreamClosed = new Promise<void>((resolve) => (closed = resolve));
  const upstream = http.createServer((req) => {
    req.on('close', () => closed());
    received();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const served = await serve(
    {},
    { endpoints: loadEndpoints(dir), upstreamSpecs: [{ name: 'local', description: 'test upstream', baseUrl: { env: 'LOCAL_URL', default: base } }] },
  );
  t.teardown(async () => {
    await served.close();
    upstream.closeAllConnections();
    upstream.close();
  });
  const client = new AbortController();
  const answer = fetch(`${served.url}/api/test/hang?q=x`, { headers: { 'X-API-Key': TEST_KEY }, signal: client.signal }).catch((err: Error) => err);
  await arrived;
  client.abort();
  t.match(await answer, { name: 'AbortError' });
  // With the endpoint's timeout at ten minutes, only the disconnect can end the upstream request.
  await upstreamClosed;
  t.pass('upstream request closed');
});
