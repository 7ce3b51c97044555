/**
 * Temp mail under the names the genre's own bots use (mauricegift/atassa, gifted/tempmail.js):
 * the inbox items carry the text as `body`, and a message is read with `message_id`.
 */
import t from 'tap';
import nodemailer from 'nodemailer';
import { mailServer } from './mail-server.js';

const { smtp, api } = await mailServer(t, {});

t.test('inbox items carry the text as body; message_id reads and deletes a message', async (t) => {
  const { result: box } = await api('/api/tempmail/generate');
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
  await transport.sendMail({ from: 'Ada <ada@example.com>', to: box.email, subject: 'Your code', text: 'Code: 123456' });
  const inbox = await api('/api/tempmail/inbox', { token: box.token, email: box.email });
  t.equal(inbox.result.length, 1);
  t.match(inbox.result[0], { id: String, messageid: String, from: '"Ada" <ada@example.com>', subject: 'Your code', date: String });
  t.equal(inbox.result[0].body.trim(), 'Code: 123456', 'body: the plain text, in the list');
  t.equal(inbox.result[0].text, inbox.result[0].body);

  const message = await api('/api/tempmail/message', { token: box.token, email: box.email, message_id: inbox.result[0].id });
  t.equal(message.status, 200);
  t.equal(message.result.body.trim(), 'Code: 123456');
  t.match(await api('/api/tempmail/deletemessage', { token: box.token, email: box.email, message_id: inbox.result[0].id }), { result: { deleted: true } });
  t.same((await api('/api/tempmail/inbox', { token: box.token, email: box.email })).result, []);
});

t.test("the inbox is also the envelope's messages (Neurotech-MD on /api/tempgen/v1|v2/inbox)", async (t) => {
  const { result: box } = await api('/api/tempmail/generate');
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
  await transport.sendMail({ from: 'grace@example.com', to: box.email, subject: 'Hi', text: 'Hello there' });
  const inbox = await api('/api/tempgen/v2/inbox', { token: box.token, email: box.email });
  t.same(inbox.messages, inbox.result);
  t.match(inbox.messages[0], { from: 'grace@example.com', subject: 'Hi', body: /Hello there/ });
});
