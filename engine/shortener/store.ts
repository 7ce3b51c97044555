import crypto from 'node:crypto';
import { migrate, openDatabase, type Db } from '../storage/database.js';

/**
 * Short links in the instance's SQLite database: code -> URL, with a click count.
 * Codes are 7 random base62 characters (62^7 ≈ 3.5e12, so a collision is retried,
 * not expected); a custom alias is taken as given when free.
 */
export interface ShortLink {
  code: string;
  url: string;
  clicks: number;
  createdAt: string;
  lastClickAt: string | null;
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomCode(length = 7): string {
  let code = '';
  for (let i = 0; i < length; i++) code += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return code;
}

export class ShortLinkStore {
  constructor(private readonly dataDir: string) {
    migrate(
      openDatabase(dataDir),
      'shortener/001-short-links',
      `CREATE TABLE short_links (
          code TEXT PRIMARY KEY,
          url TEXT NOT NULL,
          clicks INTEGER NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL,
          last_click_at TEXT
        );
        CREATE INDEX short_links_url ON short_links (url);`,
    );
  }

  /** The shared connection, fetched per use: the engine may close and reopen it (restarts, tests). */
  private get db(): Db {
    return openDatabase(this.dataDir);
  }

  /** The link for `url`: an existing random-code link is reused, so shortening twice gives one code. */
  create(url: string, alias?: string): ShortLink | undefined {
    if (alias) {
      const existing = this.get(alias);
      if (existing) return existing.url === url ? existing : undefined;
      return this.insert(alias, url);
    }
    const reused = this.db.prepare('SELECT code FROM short_links WHERE url = ? AND length(code) = 7 LIMIT 1').get(url) as { code: string } | undefined;
    if (reused) return this.get(reused.code);
    for (;;) {
      const code = randomCode();
      if (!this.get(code)) return this.insert(code, url);
    }
  }

  get(code: string): ShortLink | undefined {
    const row = this.db.prepare('SELECT code, url, clicks, created_at, last_click_at FROM short_links WHERE code = ?').get(code) as
      | { code: string; url: string; clicks: number; created_at: string; last_click_at: string | null }
      | undefined;
    return row && { code: row.code, url: row.url, clicks: row.clicks, createdAt: row.created_at, lastClickAt: row.last_click_at };
  }

  /** Count a click and answer the target, in one statement. */
  click(code: string): string | undefined {
    const row = this.db
      .prepare('UPDATE short_links SET clicks = clicks + 1, last_click_at = ? WHERE code = ? RETURNING url')
      .get(new Date().toISOString(), code) as { url: string } | undefined;
    return row?.url;
  }

  private insert(code: string, url: string): ShortLink {
    this.db.prepare('INSERT INTO short_links (code, url, created_at) VALUES (?, ?, ?)').run(code, url, new Date().toISOString());
    return this.get(code)!;
  }
}
