import crypto from 'node:crypto';
import { migrate, openDatabase, type Db } from '../storage/database.js';

/**
 * Temp mail in the instance's SQLite database: addresses with an expiry, and their
 * parsed messages (deleted with the address). Expired addresses are purged lazily
 * whenever the store is used, so no timer is needed.
 */
export interface StoredAttachment {
  name: string;
  url: string;
  size: number;
  mime: string;
}

export interface MessageSummary {
  id: string;
  from: string;
  subject: string;
  date: string;
}

export interface Message extends MessageSummary {
  to: string;
  text: string;
  html: string | null;
  attachments: StoredAttachment[];
  size: number;
}

export class TempMailStore {
  constructor(private readonly dataDir: string) {
    migrate(
      openDatabase(dataDir),
      'tempmail/001-addresses-messages',
      `CREATE TABLE tempmail_addresses (
          address TEXT PRIMARY KEY,
          created_at TEXT NOT NULL,
          expires_at INTEGER NOT NULL
        );
        CREATE TABLE tempmail_messages (
          id TEXT PRIMARY KEY,
          address TEXT NOT NULL REFERENCES tempmail_addresses(address) ON DELETE CASCADE,
          sender TEXT NOT NULL,
          recipient TEXT NOT NULL,
          subject TEXT NOT NULL,
          date TEXT NOT NULL,
          text TEXT NOT NULL,
          html TEXT,
          attachments TEXT NOT NULL,
          size INTEGER NOT NULL,
          received_at INTEGER NOT NULL
        );
        CREATE INDEX tempmail_messages_address ON tempmail_messages (address, received_at);`,
    );
  }

  /** The shared connection, fetched per use: the engine may close and reopen it (restarts, tests). */
  private get db(): Db {
    return openDatabase(this.dataDir);
  }

  private purge(): void {
    this.db.prepare('DELETE FROM tempmail_addresses WHERE expires_at <= ?').run(Date.now());
  }

  /** A new address; false when the chosen local part is taken. */
  createAddress(address: string, ttlSeconds: number): { address: string; expiresAt: string } | undefined {
    this.purge();
    const expires = Date.now() + ttlSeconds * 1000;
    const inserted = this.db
      .prepare('INSERT OR IGNORE INTO tempmail_addresses (address, created_at, expires_at) VALUES (?, ?, ?)')
      .run(address, new Date().toISOString(), expires);
    return inserted.changes ? { address, expiresAt: new Date(expires).toISOString() } : undefined;
  }

  exists(address: string): boolean {
    this.purge();
    return Boolean(this.db.prepare('SELECT 1 FROM tempmail_addresses WHERE address = ?').get(address));
  }

  deleteAddress(address: string): boolean {
    return this.db.prepare('DELETE FROM tempmail_addresses WHERE address = ?').run(address).changes > 0;
  }

  /** Store a message and drop the oldest beyond `maxMessages`, in one transaction. */
  addMessage(address: string, message: Omit<Message, 'id'>, maxMessages: number): string {
    const id = crypto.randomBytes(9).toString('base64url');
    const db = this.db;
    db.transaction(() => {
      db.prepare(
        `INSERT INTO tempmail_messages (id, address, sender, recipient, subject, date, text, html, attachments, size, received_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, address, message.from, message.to, message.subject, message.date, message.text, message.html, JSON.stringify(message.attachments), message.size, Date.now());
      db.prepare(
        `DELETE FROM tempmail_messages WHERE address = ? AND id NOT IN
           (SELECT id FROM tempmail_messages WHERE address = ? ORDER BY received_at DESC, rowid DESC LIMIT ?)`,
      ).run(address, address, maxMessages);
    })();
    return id;
  }

  inbox(address: string): MessageSummary[] {
    return this.db
      .prepare('SELECT id, sender AS "from", subject, date FROM tempmail_messages WHERE address = ? ORDER BY received_at DESC, rowid DESC')
      .all(address) as MessageSummary[];
  }

  message(address: string, id: string): Message | undefined {
    const row = this.db
      .prepare('SELECT id, sender, recipient, subject, date, text, html, attachments, size FROM tempmail_messages WHERE address = ? AND id = ?')
      .get(address, id) as Record<string, any> | undefined;
    if (!row) return undefined;
    return {
      id: row.id,
      from: row.sender,
      to: row.recipient,
      subject: row.subject,
      date: row.date,
      text: row.text,
      html: row.html,
      attachments: JSON.parse(row.attachments),
      size: row.size,
    };
  }

  deleteMessage(address: string, id: string): boolean {
    return this.db.prepare('DELETE FROM tempmail_messages WHERE address = ? AND id = ?').run(address, id).changes > 0;
  }
}
