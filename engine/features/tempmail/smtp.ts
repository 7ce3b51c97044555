import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';
import type { Config } from '../../platform/config.js';
import type { DatabaseSource } from '../../platform/db/database.js';
import type { FileStore } from '../../platform/storage/files.js';
import { sanitize } from '../tools/html/sanitize.js';
import { tempMailSettings } from './settings.js';
import { TempMailStore } from './store.js';

/**
 * The temp-mail SMTP receiver: accepts mail only for live generated addresses on
 * MAIL_DOMAIN (others get 550 at RCPT, before any data), refuses messages over
 * TEMPMAIL_MAX_MESSAGE_BYTES (552), parses with mailparser, keeps sanitised HTML and
 * hosts attachments as files. No AUTH and no relaying: it is an inbound MX only.
 */
export interface TempMailServer {
  port: number;
  close(): Promise<void>;
}

export async function startTempMail(deps: { config: Config; database: DatabaseSource; files: FileStore; port?: number }): Promise<TempMailServer> {
  const settings = tempMailSettings(deps.config);
  if (!settings.domain) throw new Error('MAIL_DOMAIN must be set to receive temp mail');
  const domain = settings.domain;
  const store = new TempMailStore(deps.database);

  const server = new SMTPServer({
    name: domain,
    banner: 'Manifold temp mail',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: settings.maxMessageBytes,
    logger: false,
    onRcptTo(address, _session, callback) {
      const rcpt = address.address.toLowerCase();
      const refuse = () => callback(Object.assign(new Error(`No such mailbox <${rcpt}>`), { responseCode: 550 }));
      if (!rcpt.endsWith(`@${domain}`)) return refuse();
      store.exists(rcpt).then(
        (live) => (live ? callback() : refuse()),
        // the database is unreachable: a temporary failure, so the sender retries later
        () => callback(Object.assign(new Error('Mailbox lookup failed, try again later'), { responseCode: 451 })),
      );
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const recipients = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      receive(stream, recipients)
        .then(() => callback())
        .catch((err: Error & { responseCode?: number }) => callback(Object.assign(err, { responseCode: err.responseCode ?? 451 })));
    },
  });

  async function receive(stream: SMTPServerDataStream, recipients: string[]): Promise<void> {
    const parsed = await simpleParser(stream);
    if (stream.sizeExceeded) throw Object.assign(new Error('Message too large'), { responseCode: 552 });
    const attachments = [];
    for (const a of parsed.attachments) {
      const ext = path.extname(a.filename ?? '').slice(1) || a.contentType.split('/')[1] || 'bin';
      const stored = await deps.files.put(a.content, { ext });
      attachments.push({ name: a.filename ?? `attachment.${stored.name.split('.').pop()}`, url: stored.url, size: a.size, mime: a.contentType });
    }
    const message = {
      from: addressText(parsed.from),
      to: addressText(parsed.to),
      subject: parsed.subject ?? '',
      date: (parsed.date ?? new Date()).toISOString(),
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? sanitize(parsed.html) : null,
      attachments,
      size: stream.byteLength,
    };
    for (const rcpt of recipients) await store.addMessage(rcpt, message, settings.maxMessages);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port ?? settings.smtpPort ?? 2525, settings.smtpHost, () => resolve());
  });
  // a client error after start (a peer hanging up) must not crash the process
  server.on('error', () => undefined);
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return '';
  return (Array.isArray(value) ? value : [value]).map((a) => a.text).join(', ');
}
