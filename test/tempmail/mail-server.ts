import path from 'node:path';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { startTempMail } from '../../engine/features/tempmail/smtp.js';
import { serve, TEST_KEY } from '../support/serve.js';

const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tempgen')).filter((e) => e.path.includes('tempmail'));

/** An engine serving the temp-mail endpoints with its SMTP receiver, closed at the test's end; `api` calls a route with the test key. */
export async function mailServer(t: { teardown(fn: () => unknown): void }, env: Record<string, string | undefined>) {
  const served = await serve({ MAIL_DOMAIN: 'mail.test', ...env }, { endpoints });
  const smtp = await startTempMail({ config: served.engine.config, database: served.engine.database, files: served.engine.files, port: 0 });
  t.teardown(async () => {
    await smtp.close();
    await served.close();
  });
  const api = async (route: string, params: Record<string, string> = {}) => {
    const res = await fetch(`${served.url}${route}?${new URLSearchParams(params)}`, { headers: { 'x-api-key': TEST_KEY } });
    return { status: res.status, ...(await res.json()) };
  };
  return { served, smtp, api };
}
