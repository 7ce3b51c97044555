/**
 * The web console at /admin in a real browser (Debian's chromium, which .ci/run
 * installs): sign in with ADMIN_TOKEN, create a key with every rule, call an endpoint
 * with it, see the call in the usage chart, edit and rotate it, revoke it and see the
 * next call refused; cancel a waiting job; and each other page with its data. Under the page's CSP, without
 * a console error and without a request leaving this server. Every wait is on the page.
 */
import t from 'tap';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { buildConsole } from '../../scripts/build-console.js';
import { CONSOLE_PAGES, consolePage, haveChromium, launchChromium, openPage, signIn, CHROMIUM } from '../../scripts/console-browser.js';
import { JobStore } from '../../engine/pipeline/jobs/store.js';
import { testEndpoints } from '../engine/test-endpoints.js';
import { freePort } from '../support/free-port.js';
import { serve } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

if (!haveChromium()) {
  t.test('the console in a browser', { skip: `no browser at ${CHROMIUM} (apt-get install chromium)` }, async () => {});
} else {
  // what npm run build does: the test serves the console as built from this checkout
  await buildConsole();
  const served = await serve({ ADMIN_TOKEN: TEST_ADMIN_TOKEN }, testEndpoints());
  const browser = await launchChromium();
  t.teardown(async () => {
    await browser.close();
    await served.close();
  });
  const call = (key: string, path = '/api/test/one?text=a') => fetch(served.url + path, { headers: { 'X-API-Key': key } });

  t.test('create a key, call with it, see the call in the chart, rotate it, revoke it, see the next call refused', async (t) => {
    const { page, watch } = await consolePage(browser, served.url);
    await signIn(page, served.url, TEST_ADMIN_TOKEN);
    t.equal(await page.evaluate(() => location.href), `${served.url}/admin`, 'the token is not in the URL');

    // create, with every rule the form offers
    await page.getByRole('button', { name: 'New key' }).click();
    const form = page.getByRole('dialog', { name: 'New key' });
    await form.getByLabel('Label').fill('console-bot');
    await form.getByLabel('Owner note').fill('made by the browser test');
    await form.getByLabel('Requests per minute').fill('120');
    await form.getByLabel('Requests per day (UTC)').fill('5000');
    await form.getByLabel('Expires at').fill('2099-01-01');
    await form.getByLabel('Allowed endpoints').fill('fun');
    await form.getByLabel('Allowed addresses').fill('127.0.0.1, ::1');
    await form.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByLabel('Key for console-bot');
    await secret.waitFor();
    const key = await secret.inputValue();
    t.match(key, /^mf_/, 'the new key is shown once');
    await page.getByRole('button', { name: 'Done' }).click();

    const [record] = (await served.engine.keys.list()).filter((k) => k.label === 'console-bot');
    t.match(
      record,
      {
        tier: 'personal',
        note: 'made by the browser test',
        rpm: 120,
        daily: 5000,
        expiresAt: '2099-01-01T00:00:00.000Z',
        allow: ['fun'],
        ips: ['127.0.0.1', '::1'],
      },
      'every rule reached the store',
    );
    const row = page.locator(`tr[data-key-id="${record!.id}"]`);
    await row.getByText('console-bot').waitFor();

    // a call with it, and one its allow list refuses
    t.equal((await call(key)).status, 200, 'the new key works');
    const outside = await call(key, '/api/test/echo?word=alpha');
    t.equal(outside.status, 403);
    t.equal((await outside.json()).error, 'endpoint_not_allowed', 'its allow list is enforced');

    // the call in the usage chart of this key
    await openPage(page, 'Usage');
    await page.getByLabel('Key', { exact: true }).selectOption(record!.id);
    const answer = page.waitForResponse((res) => res.url().includes('/api/admin/usage') && res.url().includes(record!.id));
    await page.getByRole('button', { name: 'Show' }).click();
    await answer;
    const chart = page.locator('#usage-by-key');
    await chart.and(page.locator('[aria-label="Requests per key: console-bot 1"]')).waitFor();
    t.pass('the per-key chart shows the one call');
    t.ok(await chart.evaluate((canvas: HTMLCanvasElement) => canvas.width > 0 && canvas.height > 0), 'drawn on its canvas');
    const endpointRow = page.locator('#usage-by-endpoint-table tbody tr').filter({ hasText: 'GET /api/test/one' });
    t.equal(await endpointRow.locator('td').first().textContent(), '1', 'the endpoint table counts it once');

    // edit: a field changed, a rule cleared
    await openPage(page, 'Keys');
    await row.getByRole('button', { name: 'Edit console-bot' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit console-bot' });
    await edit.getByLabel('Requests per minute').fill('-5');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByRole('alert').filter({ hasText: 'rpm' }).waitFor();
    t.equal(await edit.getByLabel('Requests per minute').getAttribute('aria-invalid'), 'true', "the server's 400 marks the field it names");
    await edit.getByLabel('Requests per minute').fill('90');
    await edit.getByLabel('Allowed addresses').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved console-bot.' }).waitFor();
    t.match(
      await served.engine.keys.list().then((keys) => keys.find((k) => k.id === record!.id)),
      { rpm: 90, ips: null, daily: 5000 },
      'only the changed fields',
    );

    // rotate with a grace: both secrets work until it ends
    await row.getByRole('button', { name: 'Rotate console-bot' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate console-bot' });
    await rotate.getByLabel('Grace for the current secret (seconds)').fill('3600');
    await rotate.getByRole('button', { name: 'Rotate' }).click();
    const rotated = page.getByLabel('Key for console-bot');
    await rotated.waitFor();
    const newKey = await rotated.inputValue();
    t.not(newKey, key, 'a new secret');
    await page.getByText(/The previous key works until/).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    t.equal((await call(newKey)).status, 200, 'the new secret works');
    t.equal((await call(key)).status, 200, 'the old one too, during the grace');

    // revoke: the next call is refused
    await row.getByRole('button', { name: 'Revoke console-bot' }).click();
    await page.getByRole('dialog', { name: 'Revoke console-bot?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('status').filter({ hasText: 'Revoked console-bot.' }).waitFor();
    await row.waitFor({ state: 'detached' });
    const refused = await call(newKey);
    t.equal(refused.status, 401, 'the next call with the revoked key is refused');
    t.equal((await refused.json()).error, 'invalid_api_key');

    // the browser reports the refused edit's 400 as a failed load; nothing else may appear
    const refusedEdit = /status of 400/;
    t.equal(watch.problems.filter((p) => refusedEdit.test(p)).length, 1, 'the refused edit');
    t.same(
      watch.problems.filter((p) => !refusedEdit.test(p)),
      [],
      'no other console error (a CSP violation would show here)',
    );
    t.same(watch.elsewhere, [], 'no request to another origin');
    await page.close();
  });

  t.test('jobs, health and the unavailable endpoints, each with its data', async (t) => {
    const { page, watch } = await consolePage(browser, served.url);
    await signIn(page, served.url, TEST_ADMIN_TOKEN);

    await openPage(page, 'Jobs');
    await page.getByText('No jobs yet.').waitFor();
    t.pass('an empty job list says so');
    // two job records (the engine is not started, so no worker takes them): one waiting, one done
    const store = new JobStore(served.engine.database);
    const waiting = await store.create({ keyId: 'test', endpoint: 'GET /api/tools/web2zip', params: {} });
    const done = await store.create({ keyId: 'test', endpoint: 'GET /api/tools/web2zip', params: {} });
    await store.start(done.id);
    await store.complete(done.id, { ok: true });
    await page.getByRole('button', { name: 'Refresh' }).click();
    const waitingRow = page.locator(`tr[data-job-id="${waiting.id}"]`);
    await waitingRow.getByText('queued', { exact: true }).waitFor();
    t.equal(await page.locator(`tr[data-job-id="${done.id}"]`).getByRole('button').count(), 0, 'a finished job offers no cancel');
    await waitingRow.getByRole('button', { name: `Cancel job ${waiting.id}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Cancelled job ${waiting.id}.` })
      .waitFor();
    await waitingRow.getByText('cancelled', { exact: true }).waitFor();
    t.equal((await store.get(waiting.id))?.status, 'cancelled', 'the job is cancelled in the store');

    await openPage(page, 'Health');
    const database = page.locator('#health-table tbody tr').filter({ hasText: 'database' });
    await database.getByText('up').waitFor();
    t.pass('the database check, from /health/ready');

    await openPage(page, 'Unavailable endpoints');
    const group = page.locator('#unavailable-table tbody tr').filter({ hasText: 'SOME_UNSET_VARIABLE' });
    await group.waitFor();
    t.equal(await group.locator('code', { hasText: 'SOME_UNSET_VARIABLE' }).count(), 1, 'the variable that would enable it, as code');
    await group.getByText(/1 endpoint/).click();
    await group.getByText('GET /api/test/needs-env').waitFor();
    t.pass('the endpoint it would enable');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    t.equal(await page.evaluate(() => sessionStorage.length), 0, 'signing out forgets the token');
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'ADMIN_TOKEN' }).waitFor();
    t.pass('a wrong token is refused with the server’s message');

    t.same(
      watch.problems.filter((p) => !p.includes('403')),
      [],
      'no console errors besides the refused sign-in',
    );
    t.same(watch.elsewhere, [], 'no request to another origin');
    await page.close();
  });

  t.test('keyboard only: the menu, the dialog and its fields are reachable and labelled', async (t) => {
    const { page } = await consolePage(browser, served.url);
    await signIn(page, served.url, TEST_ADMIN_TOKEN);
    // a fresh load of the page (the token stays in this tab): the focus starts at the top
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    await page.keyboard.press('Tab');
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content', 'the first stop skips the menu');
    // into the menu: Keys, then Usage, followed with Enter
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Usage');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    t.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1', "the page's heading takes the focus");

    await openPage(page, 'Keys');
    await page.getByRole('button', { name: 'New key' }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'New key' });
    await form.waitFor();
    t.equal(await page.evaluate(() => document.activeElement?.id), 'key-tier', 'the dialog takes the focus');
    const unlabelled = await form
      .locator('input, select, textarea')
      .evaluateAll((fields) => fields.filter((f) => !(f as HTMLInputElement).labels?.length).length);
    t.equal(unlabelled, 0, 'every field has a label');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'New key', 'Escape closes it and gives the focus back');
    await page.close();
  });
  t.test("every page, the sign-in form and a dialog pass axe's WCAG 2.1 A and AA rules (labels, names, contrast, landmarks)", async (t) => {
    const { page } = await consolePage(browser, served.url);
    const audit = async (what: string, target: Page) => {
      const { violations } = await new AxeBuilder({ page: target }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      t.same(
        violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        [],
        what,
      );
    };
    await page.goto(`${served.url}/admin`);
    await page.getByLabel('Admin token').waitFor();
    await audit('the sign-in form', page);
    await signIn(page, served.url, TEST_ADMIN_TOKEN);
    for (const { link, ready } of CONSOLE_PAGES) {
      await openPage(page, link);
      await page.locator(ready).first().waitFor();
      await audit(`the ${link} page`, page);
    }
    await openPage(page, 'Keys');
    await page.getByRole('button', { name: 'New key' }).click();
    await page.getByRole('dialog', { name: 'New key' }).waitFor();
    await audit('the new-key dialog', page);
    await page.close();
  });
  t.test('a dependency that does not answer is down on the Health page, with its problem', async (t) => {
    // Redis on a port nothing listens on: readiness answers 503 not_ready naming it
    const broken = await serve({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, testEndpoints());
    t.teardown(() => broken.close());
    const { page } = await consolePage(browser, broken.url);
    await signIn(page, broken.url, TEST_ADMIN_TOKEN);
    await openPage(page, 'Health');
    await page.getByRole('status').filter({ hasText: 'Not ready (503)' }).waitFor();
    const redis = page.locator('#health-table tbody tr').filter({ has: page.locator('th', { hasText: /^redis$/ }) });
    await redis.getByText('down', { exact: true }).waitFor();
    t.not((await redis.locator('td').last().textContent())?.trim(), '', 'with the problem the check met');
    await page.close();
  });
}
