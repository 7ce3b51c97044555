import crypto from 'node:crypto';
import { readyDatabase, type Database, type DatabaseSource } from '../../platform/db/database.js';

/**
 * Temp mail in the instance's database (SQLite, or PostgreSQL shared by every
 * instance, so the SMTP receiver and the API may run in different processes):
 * addresses with an expiry, and their parsed messages (deleted with the address).
 * Expired addresses are purged lazily whenever the store is used, so no timer is
 * needed. An address belongs to the key that made it (its id, never the key) and to the
 * holder of the token handed out with it (its SHA-256 is kept, never the token).
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

/** Who may read an address: the creating key's id and the SHA-256 of its token. */
export interface AddressOwner {
  keyId: string;
  tokenHash: string;
}

export class TempMailStore {
  readonly #db: () => Promise<Database>;

  /** On the engine's database, or on one given database (tests). */
  constructor(source: DatabaseSource) {
    this.#db = () => readyDatabase(source);
  }

  /** The database, with expired addresses (and so their messages) gone. */
  private async purged(): Promise<Database> {
    const db = await this.#db();
    await db.kysely.deleteFrom('tempmail_addresses').where('expires_at', '<=', Date.now()).execute();
    return db;
  }

  /** A new address of `owner`; undefined when the chosen local part is taken (by any key: a live address is never taken over). */
  async createAddress(address: string, ttlSeconds: number, owner: AddressOwner): Promise<{ address: string; expiresAt: string } | undefined> {
    const { kysely } = await this.purged();
    const expires = Date.now() + ttlSeconds * 1000;
    const inserted = await kysely
      .insertInto('tempmail_addresses')
      .values({ address, created_at: new Date().toISOString(), expires_at: expires, owner_key_id: owner.keyId, token_hash: owner.tokenHash })
      .onConflict((oc) => oc.column('address').doNothing())
      .executeTakeFirst();
    return inserted.numInsertedOrUpdatedRows ? { address, expiresAt: new Date(expires).toISOString() } : undefined;
  }

  /** Whether a live address exists (the SMTP receiver's RCPT check: mail is taken for any address of ours). */
  async exists(address: string): Promise<boolean> {
    return (await this.owner(address)) !== undefined;
  }

  /** The owner of a live address; undefined when there is no such address (or it expired). Addresses made before owners were kept have none. */
  async owner(address: string): Promise<Partial<AddressOwner> | undefined> {
    const { kysely } = await this.purged();
    const row = await kysely.selectFrom('tempmail_addresses').select(['owner_key_id', 'token_hash']).where('address', '=', address).executeTakeFirst();
    return row && { keyId: row.owner_key_id ?? undefined, tokenHash: row.token_hash ?? undefined };
  }

  async deleteAddress(address: string): Promise<boolean> {
    const { kysely } = await this.#db();
    const deleted = await kysely.deleteFrom('tempmail_addresses').where('address', '=', address).executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }

  /**
   * Store a message and drop the oldest beyond `maxMessages`, in one transaction.
   * Undefined when the address is gone (expired or deleted since the mail was accepted).
   */
  async addMessage(address: string, message: Omit<Message, 'id'>, maxMessages: number): Promise<string | undefined> {
    const id = crypto.randomBytes(9).toString('base64url');
    const { kysely } = await this.#db();
    return kysely.transaction().execute(async (trx) => {
      const live = await trx
        .selectFrom('tempmail_addresses')
        .select('address')
        .where('address', '=', address)
        .where('expires_at', '>', Date.now())
        .executeTakeFirst();
      if (!live) return undefined;
      await trx
        .insertInto('tempmail_messages')
        .values({
          id,
          address,
          sender: message.from,
          recipient: message.to,
          subject: message.subject,
          date: message.date,
          text: message.text,
          html: message.html,
          attachments: JSON.stringify(message.attachments),
          size: message.size,
          received_at: Date.now(),
        })
        .execute();
      const kept = trx.selectFrom('tempmail_messages').select('seq').where('address', '=', address).orderBy('seq', 'desc').limit(maxMessages);
      await trx.deleteFrom('tempmail_messages').where('address', '=', address).where('seq', 'not in', kept).execute();
      return id;
    });
  }

  /** Newest first, each with its plain text. */
  async inbox(address: string): Promise<(MessageSummary & { text: string })[]> {
    const { kysely } = await this.#db();
    return kysely
      .selectFrom('tempmail_messages')
      .select(['id', 'sender as from', 'subject', 'date', 'text'])
      .where('address', '=', address)
      .orderBy('seq', 'desc')
      .execute();
  }

  async message(address: string, id: string): Promise<Message | undefined> {
    const { kysely } = await this.#db();
    const row = await kysely.selectFrom('tempmail_messages').selectAll().where('address', '=', address).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      from: row.sender,
      to: row.recipient,
      subject: row.subject,
      date: row.date,
      text: row.text,
      html: row.html,
      attachments: JSON.parse(row.attachments) as StoredAttachment[],
      size: row.size,
    };
  }

  async deleteMessage(address: string, id: string): Promise<boolean> {
    const { kysely } = await this.#db();
    const deleted = await kysely.deleteFrom('tempmail_messages').where('address', '=', address).where('id', '=', id).executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }
}
