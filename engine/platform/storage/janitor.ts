import type { Logger } from '../log.js';
import { nonNegativeInt } from '../settings/int.js';
import { emptyUsage, type ClassUsage } from './disk-usage.js';
import type { FileStore, StoreUsage } from './files.js';

/**
 * The storage janitor of one engine: at start and then on a timer that never keeps
 * the process alive, it removes temp files that crashed processes and failure paths
 * left (temp-area.ts), deletes generated files whose mark is older than
 * GENERATED_FILES_TTL and then, while they take more than GENERATED_FILES_QUOTA_BYTES,
 * the oldest of them (down to nine tenths of it), and measures each class of stored data for /health (a walk of
 * the disk or a listing of the bucket is too slow to do on every health check).
 * Uploads are pinned and never touched; the media cache expires its own files.
 */

export interface JanitorSettings {
  /** Seconds a generated file lives after it was last produced; 0 keeps them forever. */
  generatedTtlS: number;
  /** Milliseconds between passes. */
  everyMs: number;
  /** Bytes generated files may take in all; over it the oldest go first (0 = no quota). */
  generatedQuotaBytes: number;
}

export const DEFAULT_GENERATED_TTL_S = 7 * 24 * 3600;
export const DEFAULT_GENERATED_QUOTA_BYTES = 10 * 1024 ** 3;
/** Over the quota, generated files are evicted down to this share of it, so the next pass is not due at the next file. */
const LOW_WATER = 0.9;
const HOUR_MS = 3600_000;
/** /health asks for a new measurement when the last one is older than this. */
const REFRESH_MS = 5 * 60_000;
/**
 * The first full pass waits this long after start, so that walking a large store (or,
 * on S3, importing the SDK and listing the bucket) does not compete with boot and the
 * first requests; temp leftovers go at once.
 */
const FIRST_PASS_DELAY_MS = 5000;

/** GENERATED_FILES_TTL (seconds; 0 = never expire), and a pass every tenth of it, between a second and an hour; GENERATED_FILES_QUOTA_BYTES. */
export function janitorSettings(env: Readonly<Record<string, string>>): JanitorSettings {
  const ttl = nonNegativeInt(env, 'GENERATED_FILES_TTL', DEFAULT_GENERATED_TTL_S);
  return {
    generatedTtlS: ttl,
    everyMs: ttl === 0 ? HOUR_MS : Math.min(HOUR_MS, Math.max(1000, (ttl * 1000) / 10)),
    generatedQuotaBytes: nonNegativeInt(env, 'GENERATED_FILES_QUOTA_BYTES', DEFAULT_GENERATED_QUOTA_BYTES),
  };
}

/** What /health reports: each class's files and bytes as of `measured_at`. */
export interface StorageReport extends StoreUsage {
  temp: ClassUsage;
  measured_at: string;
  generated_ttl_s: number;
  /** GENERATED_FILES_QUOTA_BYTES (0: none). */
  generated_quota_bytes: number;
  /** Generated files deleted to stay under the quota since this process started. */
  evicted_generated: ClassUsage;
}

export class StorageJanitor {
  #report?: StorageReport;
  #measuredAt = 0;
  #running?: Promise<void>;
  #timer?: NodeJS.Timeout;
  #first?: NodeJS.Timeout;
  #starting?: Promise<unknown>;
  #failing = false;
  /** Bytes put since the last measurement: a pass is due once they could take the store past its quota. */
  #producedSince = 0;
  readonly #evicted = emptyUsage();

  constructor(
    private readonly files: FileStore,
    private readonly settings: JanitorSettings,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Temp leftovers now, a full pass shortly, then one every `everyMs`. */
  start(): void {
    this.#starting = this.files.temp.sweep().catch(() => undefined);
    this.#first = setTimeout(() => void this.sweep(), Math.min(FIRST_PASS_DELAY_MS, this.settings.everyMs)).unref();
    this.#timer ??= setInterval(() => void this.sweep(), this.settings.everyMs).unref();
  }

  /** One pass (joined by concurrent callers); never rejects: trouble is logged once per change of state. */
  sweep(): Promise<void> {
    this.#running ??= this.#pass().finally(() => (this.#running = undefined));
    return this.#running;
  }

  /**
   * A generated file of `bytes` was just put (counted high: the same bytes put again take no
   * more room). Between timed passes, the quota is enforced as soon as what was measured and
   * what came since could exceed it.
   */
  produced(bytes: number): void {
    const quota = this.settings.generatedQuotaBytes;
    if (!quota || !this.#report) return;
    this.#producedSince += bytes;
    if (this.#report.generated.bytes + this.#producedSince > quota) void this.sweep();
  }

  /** The pass under way, if any (a test waits for the one a put started). */
  get running(): Promise<void> | undefined {
    return this.#running;
  }

  /** Generated files deleted to stay under the quota since start (metrics). */
  get evicted(): Readonly<ClassUsage> {
    return this.#evicted;
  }

  /** The last measurement (undefined before the first), refreshed in the background when old. */
  report(): StorageReport | undefined {
    if (this.now() - this.#measuredAt > REFRESH_MS) void this.sweep();
    return this.#report;
  }

  async stop(): Promise<void> {
    clearTimeout(this.#first);
    clearInterval(this.#timer);
    this.#timer = undefined;
    await Promise.all([this.#starting, this.#running]);
  }

  async #pass(): Promise<void> {
    await this.#starting;
    try {
      const temp = await this.files.temp.sweep();
      const ttl = this.settings.generatedTtlS;
      const generated = ttl > 0 ? await this.files.expireGenerated(this.now() - ttl * 1000) : 0;
      if (temp + generated > 0) this.logger.info({ msg: 'storage janitor', removed_generated: generated, removed_temp: temp });
      this.#producedSince = 0;
      const [measured, tempUsage] = await Promise.all([this.files.measure(), this.files.temp.measure()]);
      const usage = await this.#keepQuota(measured);
      this.#measuredAt = this.now();
      this.#report = {
        ...usage,
        temp: tempUsage,
        measured_at: new Date(this.#measuredAt).toISOString(),
        generated_ttl_s: ttl,
        generated_quota_bytes: this.settings.generatedQuotaBytes,
        evicted_generated: { ...this.#evicted },
      };
      if (this.#failing) this.logger.info({ msg: 'storage janitor working again' });
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) this.logger.error({ msg: 'storage janitor failed; retrying on its next pass', error: (error as Error).message });
      this.#failing = true;
    }
  }

  /** Over the quota: evict the oldest generated files down to LOW_WATER of it; the usage after. */
  async #keepQuota(usage: StoreUsage): Promise<StoreUsage> {
    const quota = this.settings.generatedQuotaBytes;
    if (!quota || usage.generated.bytes <= quota) return usage;
    const freed = await this.files.evictGenerated(usage.generated.bytes - Math.floor(quota * LOW_WATER));
    this.#evicted.files += freed.files;
    this.#evicted.bytes += freed.bytes;
    this.logger.info({
      msg: 'generated files over their quota: the oldest deleted',
      quota_bytes: quota,
      evicted_files: freed.files,
      evicted_bytes: freed.bytes,
    });
    return { ...usage, generated: { files: usage.generated.files - freed.files, bytes: usage.generated.bytes - freed.bytes } };
  }
}
