import crypto from 'node:crypto';
import fs from 'node:fs';
import type { FileStore } from '../../platform/storage/files.js';
import { databaseOf, type Database, type DatabaseSource } from '../../platform/db/database.js';
import type { MediaFilesTable } from '../../platform/db/tables.js';

/**
 * Produced media files with an expiry. The bytes live in the engine's file store
 * (served at /files/<sha256>.<ext> with Range support, no key needed, as clients
 * of the genre fetch `download_url` directly); this index, in the engine's database
 * (SQLite, or PostgreSQL shared by every instance) so it survives restarts, maps a job key (source URL + profile) to the file, expires
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

type Row = MediaFilesTable;

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export class MediaFileCache {
  private readonly inflight = new Map<string, Promise<CachedFile>>();
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<number>;

  private readonly source: () => Database;
  /** The database the last operation used: once it is closed (engine shutdown) the janitor stops. */
  private used?: Database;

  constructor(
    /** The engine's database, or one given database (tests). */
    source: DatabaseSource,
    private readonly files: FileStore,
    private readonly ttlS: number,
    private readonly quotaBytes: number,
    /** Where the file route serves the store: `<PUBLIC_BASE_URL>/files`. */
    private readonly filesBaseUrl: string,
    private readonly now: () => number = Date.now,
  ) {
    this.source = () => databaseOf(source);
  }

  private async db(): Promise<Database['kysely']> {
    const db = (this.used = this.source());
    await db.ready;
    return db.kysely;
  }

  /** A live, still-present file for this key. */
  async lookup(key: string): Promise<CachedFile | undefined> {
    const db = await this.db();
    const row = await db.selectFrom('media_files').selectAll().where('key', '=', key).where('expires_at', '>', this.now()).executeTakeFirst();
    if (!row) return undefined;
    if (!(await this.files.open(row.name))) {
      await db.deleteFrom('media_files').where('key', '=', key).execute();
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
    const { key: _key, ...replaced } = row;
    await (
      await this.db()
    )
      .insertInto('media_files')
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet(replaced))
      .execute();
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
    const db = await this.db();
    const expired = await db.selectFrom('media_files').selectAll().where('expires_at', '<=', this.now()).execute();
    let removed = 0;
    for (const row of expired) removed += await this.drop(row);
    // a file stored under several keys (same bytes) counts once
    const files = db.selectFrom('media_files').select(['name', 'size']).distinct().as('files');
    const sum = await db
      .selectFrom(files)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('t'))
      .executeTakeFirstOrThrow();
    let total = Number(sum.t);
    if (total <= this.quotaBytes) return removed;
    const oldest = await db.selectFrom('media_files').selectAll().orderBy('created_at').execute();
    for (const row of oldest) {
      if (total <= this.quotaBytes) break;
      if (await this.drop(row)) total -= row.size;
    }
    return removed;
  }

  /** Sweep every `everyMs` (a timer that never keeps the process alive). */
  startJanitor(everyMs: number): void {
    this.timer ??= setInterval(() => {
      // the engine closes its database at shutdown; this cache is done then
      // a failed removal keeps its row (see drop), so the next sweep retries it
      if (!this.used?.closed) void this.sweep().catch(() => undefined);
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
    const db = await this.db();
    const shared = await db.selectFrom('media_files').select('key').where('name', '=', row.name).where('key', '!=', row.key).executeTakeFirst();
    // an upload of the same bytes pins the file: its permanent URL must keep working
    const removed = !shared && (await this.files.removeUnpinned(row.name));
    await db.deleteFrom('media_files').where('key', '=', row.key).execute();
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
