import crypto from 'node:crypto';
import fs from 'node:fs';
import type { FileStore } from '../storage/files.js';
import { migrate, type Db } from '../storage/database.js';

/**
 * Produced media files with an expiry. The bytes live in the engine's file store
 * (served at /files/<sha256>.<ext> with Range support, no key needed, as clients
 * of the genre fetch `download_url` directly); this index, in SQLite so it
 * survives restarts, maps a job key (source URL + profile) to the file, expires
 * it after the TTL and keeps the total under the disk quota, oldest first.
 * Identical concurrent jobs share one run (single-flight).
 */
export interface CachedFile {
  name: string;
  url: string;
  size: number;
  expiresAt: number;
  /** The result metadata saved with the file, so a reuse answers exactly like the first call. */
  meta: Record<string, unknown>;
}

interface Row {
  key: string;
  name: string;
  size: number;
  created_at: number;
  expires_at: number;
  meta: string;
}

const SCHEMA = `CREATE TABLE media_files (
  key TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  size INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  meta TEXT NOT NULL
);
CREATE INDEX media_files_expiry ON media_files (expires_at);
CREATE INDEX media_files_name ON media_files (name);`;

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export class MediaFileCache {
  private readonly inflight = new Map<string, Promise<CachedFile>>();
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;

  constructor(
    private readonly db: Db,
    private readonly files: FileStore,
    private readonly ttlS: number,
    private readonly quotaBytes: number,
    /** Where the file route serves the store: `<PUBLIC_BASE_URL>/files`. */
    private readonly filesBaseUrl: string,
    private readonly now: () => number = Date.now,
  ) {
    migrate(db, 'media/001-files', SCHEMA);
  }

  /** A live, still-present file for this key. */
  async lookup(key: string): Promise<CachedFile | undefined> {
    const row = this.db.prepare('SELECT * FROM media_files WHERE key = ? AND expires_at > ?').get(key, this.now()) as Row | undefined;
    if (!row) return undefined;
    if (!(await this.files.open(row.name))) {
      this.db.prepare('DELETE FROM media_files WHERE key = ?').run(key);
      return undefined;
    }
    return this.describe(row);
  }

  /** The cached file, or one produced by `make` (shared by every concurrent caller of the same key). */
  async obtain(key: string, make: () => Promise<CachedFile>): Promise<CachedFile> {
    const joined = this.inflight.get(key);
    if (joined) return joined;
    const hit = await this.lookup(key);
    if (hit) return hit;
    // checked again: another caller may have started the job while this one looked
    let running = this.inflight.get(key);
    if (!running) {
      running = make().finally(() => this.inflight.delete(key));
      this.inflight.set(key, running);
    }
    return running;
  }

  /** Move a finished temp file into the store under `key`; then enforce the quota. */
  async store(key: string, tempPath: string, ext: string, meta: Record<string, unknown>): Promise<CachedFile> {
    const size = (await fs.promises.stat(tempPath)).size;
    const stored = await this.files.adopt(tempPath, { ext, sha256: await sha256File(tempPath), size });
    const now = this.now();
    const row: Row = { key, name: stored.name, size, created_at: now, expires_at: now + this.ttlS * 1000, meta: JSON.stringify(meta) };
    this.db
      .prepare('INSERT OR REPLACE INTO media_files (key, name, size, created_at, expires_at, meta) VALUES (@key, @name, @size, @created_at, @expires_at, @meta)')
      .run(row);
    // the file is stored whatever the quota pass meets; a failed removal is retried by the next sweep
    await this.sweep().catch(() => undefined);
    return this.describe(row);
  }

  /** The janitor: drop expired entries, then the oldest until under the quota. Returns files removed. One sweep at a time. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<number> {
    const expired = this.db.prepare('SELECT * FROM media_files WHERE expires_at <= ?').all(this.now()) as Row[];
    let removed = 0;
    for (const row of expired) removed += await this.drop(row);
    let total = (this.db.prepare('SELECT COALESCE(SUM(size), 0) AS t FROM (SELECT DISTINCT name, size FROM media_files)').get() as { t: number }).t;
    if (total <= this.quotaBytes) return removed;
    const oldest = this.db.prepare('SELECT * FROM media_files ORDER BY created_at ASC').all() as Row[];
    for (const row of oldest) {
      if (total <= this.quotaBytes) break;
      if (await this.drop(row)) total -= row.size;
    }
    return removed;
  }

  /** Sweep every `everyMs` (a timer that never keeps the process alive). */
  startJanitor(everyMs: number): void {
    this.timer ??= setInterval(() => {
      // the engine closes the shared connection at shutdown; this cache is done then
      // a failed removal keeps its row (see drop), so the next sweep retries it
      if (this.db.open) void this.sweep().catch(() => undefined);
      else this.stopJanitor();
    }, everyMs).unref();
  }

  stopJanitor(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Remove an entry; its file goes too unless another entry (same bytes) still uses it.
   * The row goes after the file, so a removal that fails (storage unreachable) is retried.
   * Returns 1 if a file was deleted.
   */
  private async drop(row: Row): Promise<number> {
    const shared = this.db.prepare('SELECT 1 FROM media_files WHERE name = ? AND key != ?').get(row.name, row.key);
    // an upload of the same bytes pins the file: its permanent URL must keep working
    const removed = !shared && (await this.files.removeUnpinned(row.name));
    this.db.prepare('DELETE FROM media_files WHERE key = ?').run(row.key);
    return removed ? 1 : 0;
  }

  private describe(row: Row): CachedFile {
    return {
      name: row.name,
      url: `${this.filesBaseUrl}/${row.name}`,
      size: row.size,
      expiresAt: row.expires_at,
      meta: JSON.parse(row.meta) as Record<string, unknown>,
    };
  }
}
