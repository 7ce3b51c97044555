/** Features have a lifecycle: the engine starts and closes them; main.ts and app.ts name none. */
import fs from 'node:fs';
import net from 'node:net';
import t from 'tap';
import { serve } from '../support/serve.js';
import type { Logger } from '../../engine/platform/log.js';
import { engineFeatures } from '../../engine/app/features.js';

const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

t.test('the temp-mail receiver starts with engine.start() and stops with engine.close()', async (t) => {
  const lines: Record<string, unknown>[] = [];
  const logger: Logger = { info: (f: Record<string, unknown>) => lines.push(f), error: (f: Record<string, unknown>) => lines.push(f) } as unknown as Logger;
  const served = await serve({ MAIL_DOMAIN: 'mail.test', SMTP_PORT: '0', SMTP_HOST: '127.0.0.1' }, { endpoints: [], logger });
  await served.engine.start();
  const port = lines.find((l) => l.msg === 'smtp listening')?.port as number;
  t.ok(port > 0, `SMTP on ${port}`);
  t.ok(await connects(port), 'accepting mail');
  await served.close();
  t.notOk(await connects(port), 'closed with the engine');
});

t.test('without MAIL_DOMAIN and SMTP_PORT nothing is started', async (t) => {
  const served = await serve({}, { endpoints: [] });
  t.teardown(() => served.close());
  await served.engine.start();
});

t.test('every built-in route comes from a feature; main.ts and app.ts name no feature', async (t) => {
  const names = engineFeatures().map((f) => f.name);
  t.equal(new Set(names).size, names.length, 'distinct names');
  const served = await serve({}, { endpoints: [] });
  t.teardown(() => served.close());
  t.ok(served.engine.builtins.some((b) => b.path === '/health') && served.engine.builtins.some((b) => b.path === '/gallery'));
  for (const file of ['main.ts', 'app.ts']) {
    const source = fs.readFileSync(new URL(`../../engine/app/${file}`, import.meta.url), 'utf8');
    t.notMatch(source, /tempmail|smtp|chromium|gallery|egress|render-pool|discovery\/routes|routes\/files|file-route|keys-routes/i, `${file} names no feature`);
  }
});
