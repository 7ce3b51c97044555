import path from 'node:path';
import t from 'tap';
import nodemailer from 'nodemailer';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { mailServer } from './mail-server.js';
import { testDialects } from '../support/dialects.js';
import { serve, TEST_KEY } from '../support/serve.js';

const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tempgen')).filter((e) => e.path.includes('tempmail'));
for (const dialect of await testDialects(t)) {
  t.test(dialect.name, async (t) => {
    const { smtp, api } = await mailServer(t, { TEMPMAIL_MAX_MESSAGES: '3', TEMPMAIL_MAX_MESSAGE_BYTES: '200000', ...(await dialect.env(t)) });
    /** The SMTP reply code a send was refused with (0 when it was accepted). */
    const refusal = (sending: Promise<unknown>) =>
      sending.then(
        () => 0,
        (err: { responseCode?: number }) => err.responseCode,
      );
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });

    t.test('a real SMTP message lands in the inbox, parsed, with a hosted attachment', async (t) => {
      const { result: box } = await api('/api/tempmail/generate');
      t.match(box.email, /^[0-9a-f]{12}@mail\.test$/);
      await transport.sendMail({
        from: 'Ada <ada@example.com>',
        to: box.email,
        subject: 'Hello temp mail',
        text: 'Plain body',
        html: '<p onclick="steal()">Rich <b>body</b></p><script>steal()</script>',
        attachments: [{ filename: 'note.txt', content: 'attached text' }],
      });
      const inbox = await api('/api/tempmail/inbox', { token: box.token, email: box.email });
      t.equal(inbox.result.length, 1);
      t.match(inbox.result[0], { from: '"Ada" <ada@example.com>', subject: 'Hello temp mail', id: String, messageid: String });

      const { result: msg } = await api('/api/tempmail/message', { token: box.token, email: box.email, messageid: inbox.result[0].id });
      t.equal(msg.text.trim(), 'Plain body');
      t.equal(msg.body, msg.text, 'body = text, the field clients read');
      t.equal(msg.html, '<p>Rich <b>body</b></p>', 'HTML is sanitised');
      t.equal(msg.attachments.length, 1);
      t.match(msg.attachments[0], { name: 'note.txt', size: 13, mime: 'text/plain' });
      const file = await fetch(msg.attachments[0].url);
      t.equal(await file.text(), 'attached text', 'attachment is hosted');

      t.match(await api('/api/tempmail/deletemessage', { token: box.token, email: box.email, messageid: msg.id }), { result: { deleted: true } });
      t.same((await api('/api/tempmail/inbox', { token: box.token, email: box.email })).result, []);
      t.match(await api('/api/tempmail/message', { token: box.token, email: box.email, messageid: msg.id }), { status: 404 });
    });

    t.test('first-generation clients name the address by username and domain (/api/tempmail/create, check, content, delete)', async (t) => {
      const { result: box } = await api('/api/tempmail/create');
      t.match(box, { username: String, domain: 'mail.test', message: String });
      t.equal(box.email, `${box.username}@${box.domain}`);
      await transport.sendMail({ from: 'gen1@example.com', to: box.email, subject: 'Gen 1', text: 'first generation' });
      const check = await api('/api/tempmail/check', { token: box.token, username: box.username, domain: box.domain });
      t.match(check.result, [{ subject: 'Gen 1', id: String }]);
      const content = await api('/api/tempmail/content', { token: box.token, username: box.username, domain: box.domain, emailId: check.result[0].id });
      t.equal(content.result.body.trim(), 'first generation');
      t.match(
        await api('/api/tempgen/v1/inbox', { token: box.token, login: box.username }),
        { result: [{ subject: 'Gen 1' }] },
        'the domain defaults to MAIL_DOMAIN',
      );
      t.match(await api('/api/tempmail/delete', { token: box.token, username: box.username, domain: box.domain }), {
        result: { deleted: true, email: box.email },
      });
      t.match(await api('/api/tempgen/v2/inbox', { token: box.token, email: box.email }), { status: 404 });
    });

    t.test('mail for unknown addresses is refused at RCPT', async (t) => {
      t.equal(await refusal(transport.sendMail({ from: 'a@example.com', to: 'nobody@mail.test', subject: 'x', text: 'x' })), 550);
      t.equal(await refusal(transport.sendMail({ from: 'a@example.com', to: 'someone@other.test', subject: 'x', text: 'x' })), 550);
    });

    t.test('per-inbox count limit keeps the newest; size limit refuses big mail', async (t) => {
      const { result: box } = await api('/api/tempmail/generate', { name: 'limits' });
      for (const n of [1, 2, 3, 4]) await transport.sendMail({ from: 'a@example.com', to: box.email, subject: `m${n}`, text: 'x' });
      const inbox = await api('/api/tempmail/inbox', { token: box.token, email: box.email });
      t.same(
        inbox.result.map((m: { subject: string }) => m.subject),
        ['m4', 'm3', 'm2'],
      );
      t.equal(await refusal(transport.sendMail({ from: 'a@example.com', to: box.email, subject: 'big', text: 'x'.repeat(300_000) })), 552);
      t.equal((await api('/api/tempmail/inbox', { token: box.token, email: box.email })).result.length, 3);
    });

    t.test('deleting the address ends it; a taken name is refused', async (t) => {
      const { result: box } = await api('/api/tempmail/generate', { name: 'gone' });
      t.match(await api('/api/tempmail/generate', { name: 'gone' }), { status: 400, error: 'invalid_parameter' });
      t.match(await api('/api/tempmail/delete', { token: box.token, email: box.email }), { result: { deleted: true, email: box.email } });
      t.match(await api('/api/tempmail/inbox', { token: box.token, email: box.email }), { status: 404, error: 'not_found' });
      t.equal(await refusal(transport.sendMail({ from: 'a@example.com', to: box.email, subject: 'x', text: 'x' })), 550);
    });

    t.test('addresses expire after the TTL', async (t) => {
      const short = await serve({ MAIL_DOMAIN: 'mail.test', TEMPMAIL_TTL_SECONDS: '0', ...(await dialect.env(t)) }, { endpoints });
      t.teardown(() => short.close());
      const res = await fetch(`${short.url}/api/tempmail/generate`, { headers: { 'x-api-key': TEST_KEY } });
      const { result } = await res.json();
      const inbox = await fetch(`${short.url}/api/tempmail/inbox?email=${result.email}`, { headers: { 'x-api-key': TEST_KEY } });
      t.equal(inbox.status, 404, 'a zero-second address is already gone');
    });
  });
}
