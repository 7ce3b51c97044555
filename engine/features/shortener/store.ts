import crypto from 'node:crypto';
import { readyDatabase, type Database, type DatabaseSource } from '../../platform/db/database.js';

/**
 * Short links in the instance's database (SQLite, or PostgreSQL shared by every
 * instance): code -> URL, with a click count. Codes are 7 random base62 characters
 * (62^7 ≈ 3.5e12, so a collision is retried, not expected); a custom alias is taken
 * as given when free. A link belongs to the key that made it (its id, never the key):
 * its stats answer to that key only, while its redirect is public, as a link must be.
 */
export interface ShortLink {
  code: string;
  url: string;
  clicks: number;
  createdAt: string;
  lastClickAt: string | null;
  /** The creating key's id; undefined for links made before owners were kept. */
  ownerKeyId?: string;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CODE_LENGTH = 7;

export function randomCode(length = CODE_LENGTH): string {
  let code = '';
  for (let i = 0; i < length; i++) code += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return code;
}

export class ShortLinkStore {
  readonly #db: () => Promise<Database>;

  /** On the engine's database, or on one given database (tests). */
  constructor(source: DatabaseSource) {
    this.#db = () => readyDatabase(source);
  }

  /**
   * `ownerKeyId`'s link for `url`: its existing random-code link is reused, so shortening
   * twice gives one code (another key's link for the same URL is never handed out: its
   * stats are not this key's). Undefined when `alias` is taken, by another URL or another key.
   */
  async create(url: string, ownerKeyId: string, alias?: string): Promise<ShortLink | undefined> {
    if (alias) {
      const existing = await this.get(alias);
      if (existing) return existing.url === url && existing.ownerKeyId === ownerKeyId ? existing : undefined;
      // another instance may take the alias between the look and the insert: then the insert does nothing
      return (await this.insert(alias, url, ownerKeyId)) ?? (await this.create(url, ownerKeyId, alias));
    }
    const { kysely } = await this.#db();
    const reused = await kysely
      .selectFrom('short_links')
      .select('code')
      .where('url', '=', url)
      .where('owner_key_id', '=', ownerKeyId)
      .where((eb) => eb(eb.fn('length', ['code']), '=', CODE_LENGTH))
      .limit(1)
      .executeTakeFirst();
    if (reused) return this.get(reused.code);
    for (;;) {
      const inserted = await this.insert(randomCode(), url, ownerKeyId);
      if (inserted) return inserted;
    }
  }

  async get(code: string): Promise<ShortLink | undefined> {
    const { kysely } = await this.#db();
    const row = await kysely.selectFrom('short_links').selectAll().where('code', '=', code).executeTakeFirst();
    return (
      row && {
        code: row.code,
        url: row.url,
        clicks: row.clicks,
        createdAt: row.created_at,
        lastClickAt: row.last_click_at,
        ...(row.owner_key_id !== null && { ownerKeyId: row.owner_key_id }),
      }
    );
  }

  /** Delete `ownerKeyId`'s link `code`: false when there is none of that key's (another key's link stays). */
  async delete(code: string, ownerKeyId: string): Promise<boolean> {
    const { kysely } = await this.#db();
    const deleted = await kysely.deleteFrom('short_links').where('code', '=', code).where('owner_key_id', '=', ownerKeyId).executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }

  /** Count a click and answer the target, in one statement. */
  async click(code: string): Promise<string | undefined> {
    const { kysely } = await this.#db();
    const row = await kysely
      .updateTable('short_links')
      .set((eb) => ({ clicks: eb('clicks', '+', 1), last_click_at: new Date().toISOString() }))
      .where('code', '=', code)
      .returning('url')
      .executeTakeFirst();
    return row?.url;
  }

  /** The new link, or undefined when the code is taken. */
  private async insert(code: string, url: string, ownerKeyId: string): Promise<ShortLink | undefined> {
    const { kysely } = await this.#db();
    const createdAt = new Date().toISOString();
    const row = await kysely
      .insertInto('short_links')
      .values({ code, url, created_at: createdAt, owner_key_id: ownerKeyId })
      .onConflict((oc) => oc.column('code').doNothing())
      .returning('code')
      .executeTakeFirst();
    return row && { code, url, clicks: 0, createdAt, lastClickAt: null, ownerKeyId };
  }
}
