import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { AdapterSetup, Call, Output } from '../../contract/call.js';
import { ApiError, invalidParameter, notFound } from '../../core/errors.js';
import { abortable } from '../../core/abortable.js';
import { contentTypeOf } from '../../platform/storage/files.js';
import { convert, tooLong } from './convert.js';
import { MediaFileCache, type CachedFile } from './file-cache.js';
import { chooseFormats, knownSize, type Target } from './formats.js';
import { JobSlots } from './job-slots.js';
import { startEgressProxy, type EgressProxy } from './egress-proxy.js';
import { mediaProxyDial } from './proxy-failover.js';
import { cookiePools, type CookieFile, type CookiePools } from './cookie-pool.js';
import { metaOf, safeFilename, type ItemMeta, type Produced } from './result-shapes.js';
import { mediaSettings, type MediaSettings } from './settings.js';
import { infoArgs, runInfo, searchArgs, writeInfoFile, type YtInfo } from './ytdlp.js';

/** What the media service uses of its engine's setup. */
type MediaSetup = Pick<AdapterSetup, 'config' | 'files' | 'http' | 'scope' | 'database'>;

/**
 * The media jobs of one engine instance, shared by every downloader endpoint: the
 * settings, the concurrency slots, the file cache and a short-lived cache of
 * resolved metadata (so `ytdl`, which makes a video and an audio file, and
 * concurrent calls for the same page resolve it once).
 */
export interface OutputSpec {
  target: Target;
  format: 'mp3' | 'mp4';
  /** As the client sees it: `128kbps`, `720p`. */
  quality: string;
}

/** What the file cache keeps with each file besides its bytes. */
type StoredMeta = Pick<Produced, 'meta' | 'format' | 'quality' | 'filename'>;

const INFO_REUSE_MS = 60_000;

export class MediaService {
  readonly settings: MediaSettings;
  readonly slots: JobSlots;
  readonly cache: MediaFileCache;
  private readonly infos = new Map<string, { at: number; info: Promise<YtInfo>; signal: AbortSignal }>();
  /** The callers waiting for each link work (by job key), and the switch that stops it once all have withdrawn (wait()). */
  private readonly waiting = new Map<string, { callers: number; stop: AbortController }>();
  private readonly tempDir: string;
  private readonly proxy: Promise<EgressProxy>;
  private readonly cookies: CookiePools;

  constructor(private readonly setup: MediaSetup) {
    this.settings = mediaSettings(setup.config);
    this.slots = new JobSlots(this.settings.concurrency, this.settings.queue);
    this.cache = new MediaFileCache(setup.database, setup.files, this.settings.fileTtlS, this.settings.diskQuotaBytes, `${setup.config.publicBaseUrl}/files`);
    this.cache.startJanitor(Math.min(this.settings.fileTtlS * 500, 60_000));
    this.tempDir = setup.files.tempDir;
    this.cookies = cookiePools(setup);
    this.proxy = startEgressProxy(setup.http.guard, setup.config.env.MEDIA_PROXY ? mediaProxyDial(setup.config.env.MEDIA_PROXY) : undefined);
  }

  /** Stop the egress proxy (its listener and tunnels) and the cache janitor. */
  async close(): Promise<void> {
    this.cache.stopJanitor();
    await (await this.proxy.catch(() => undefined))?.close();
  }

  /** Egress for one yt-dlp run: its `--proxy` URL and what the proxy refused it. */
  private async egress(): Promise<{ url: string; refusal(): string | undefined }> {
    const proxy = await this.proxy;
    const run = crypto.randomUUID();
    return { url: proxy.urlFor(run), refusal: () => proxy.takeRefusal(run) };
  }

  /**
   * Link mode: the produced file (made now, or reused), with its metadata. `progress` hears
   * the stages (`resolving`, then `converting` with ffmpeg's own progress, 0–1) and
   * `caller.meter` the media's seconds when this call starts the work; a call that joins one
   * already running, or finds the file cached, hears nothing and processed nothing.
   *
   * The work is not tied to the caller's signal: a client that leaves, or runs out of time,
   * leaves it to finish for the others waiting and for the cache. A caller that withdraws it
   * (`caller.cancelled`: a cancelled job) stops waiting at once, and the work stops (its
   * processes killed, its slot freed) when no other caller waits for it any more.
   */
  async link(
    url: string,
    spec: OutputSpec,
    progress?: (fraction: number, stage: string) => void,
    caller: Pick<Call, 'cancelled' | 'meter'> = {},
  ): Promise<Produced> {
    const key = jobKey(url, spec);
    const waiting = this.wait(key, caller.cancelled);
    const obtained = this.cache.obtain(key, () =>
      this.runJob(waiting.stop, async (signal) => {
        progress?.(0, 'resolving');
        const { info, choice, dir, infoFile } = await this.prepare(url, spec, signal);
        try {
          const out = path.join(dir, `out.${spec.format}`);
          progress?.(0, 'converting');
          const job = {
            settings: this.settings,
            dir,
            info,
            infoFile,
            choice,
            target: spec.target,
            signal,
            proxy: await this.egress(),
            progress: progress && ((fraction: number) => progress(fraction, 'converting')),
          };
          const conversion = await convert(job, { file: out });
          await conversion.done;
          const meta = metaOf(info);
          if (meta.duration === undefined && conversion.probedDuration) meta.duration = Math.round(conversion.probedDuration * 100) / 100;
          if (meta.duration) caller.meter?.({ mediaSeconds: meta.duration });
          const stored: StoredMeta = { meta, format: spec.format, quality: spec.quality, filename: safeFilename(meta.title, spec.format) };
          return await this.cache.store(key, out, spec.format, stored as unknown as Record<string, unknown>);
        } finally {
          await fs.promises.rm(dir, { recursive: true, force: true });
        }
      }),
    );
    try {
      return produced(await (caller.cancelled ? abortable(obtained, caller.cancelled) : obtained));
    } catch (error) {
      // joined a run that everyone else had just withdrawn, as it was being stopped: this caller still wants it
      if (error instanceof WorkWithdrawn && !caller.cancelled?.aborted) return this.link(url, spec, progress, caller);
      throw error;
    } finally {
      waiting.leave();
    }
  }

  /**
   * Join the callers waiting for the link work of `key`. The work's `stop` signal aborts when
   * the last of them leaves by withdrawing (`cancelled`); one that leaves with the answer, or
   * can never withdraw (no `cancelled`), keeps it going.
   */
  private wait(key: string, cancelled?: AbortSignal): { stop: AbortSignal; leave(): void } {
    let run = this.waiting.get(key);
    if (!run) this.waiting.set(key, (run = { callers: 0, stop: new AbortController() }));
    const entry = run;
    entry.callers++;
    let left = false;
    const leave = (withdrawn = false) => {
      if (left) return;
      left = true;
      cancelled?.removeEventListener('abort', onCancel);
      if (--entry.callers > 0) return;
      if (this.waiting.get(key) === entry) this.waiting.delete(key);
      if (withdrawn) entry.stop.abort(new WorkWithdrawn());
    };
    const onCancel = () => leave(true);
    if (cancelled?.aborted) onCancel();
    else cancelled?.addEventListener('abort', onCancel, { once: true });
    return { stop: entry.stop.signal, leave: () => leave() };
  }

  /** Stream mode: bytes as ffmpeg makes them (or the cached file when there is one). */
  async stream(url: string, spec: OutputSpec, call: Call): Promise<Output> {
    const hit = await this.cache.lookup(jobKey(url, spec));
    const stored = hit && (await this.setup.files.open(hit.name));
    if (hit && stored) {
      const { filename } = hit.meta as unknown as StoredMeta;
      return { type: 'file', file: stored, contentType: contentTypeOf(hit.name), filename };
    }
    return this.runJob(call.signal, async (signal, finished) => {
      const { info, choice, dir, infoFile } = await this.prepare(url, spec, signal);
      const job = { settings: this.settings, dir, info, infoFile, choice, target: spec.target, signal, proxy: await this.egress() };
      const conversion = await convert(job, { stream: true });
      // the slot and the directory are held until the last process exits
      finished(conversion.done.finally(() => fs.promises.rm(dir, { recursive: true, force: true })));
      await conversion.firstByte;
      // counted once the stream is under way (the answer's tally is read when the response closes, which may come before ffmpeg's exit)
      const seconds = typeof info.duration === 'number' ? info.duration : conversion.probedDuration;
      if (seconds) call.meter?.({ mediaSeconds: seconds });
      return {
        type: 'binary',
        body: conversion.stdout!,
        contentType: contentTypeOf(`x.${spec.format}`),
        filename: safeFilename(metaOf(info).title, spec.format),
      };
    });
  }

  /** The first YouTube search hit for `query` (its watch URL), or undefined. */
  async searchYoutube(query: string, signal: AbortSignal): Promise<string | undefined> {
    const hit = (await this.youtubeSearch(query, 1, signal))[0];
    if (!hit?.id || !/^[\w-]{11}$/.test(hit.id)) return undefined;
    return `https://www.youtube.com/watch?v=${hit.id}`;
  }

  /** yt-dlp's flat entries for the first `count` YouTube search hits (videos, and the channels or playlists YouTube mixes in). */
  async youtubeSearch(query: string, count: number, signal: AbortSignal): Promise<YtInfo[]> {
    return this.runJob(signal, async (jobSignal) => {
      const egress = await this.egress();
      const args = searchArgs(query, { proxy: egress.url, host: this.settings.ytdlpHost, count });
      const found = await runInfo(this.settings.ytdlp, args, jobSignal, egress.refusal);
      return found.entries ?? [];
    });
  }

  /** Resolve, check the limits, choose formats, and make the job's directory. */
  private async prepare(url: string, spec: OutputSpec, signal: AbortSignal) {
    const info = firstItem(await this.resolve(url, signal));
    if (info.is_live) throw invalidParameter('url', 'live streams cannot be downloaded');
    if (typeof info.duration === 'number' && info.duration > this.settings.maxDurationS) throw tooLong(this.settings.maxDurationS);
    const choice = chooseFormats(info, spec.target);
    if (!choice) throw notFound(`No ${spec.target.kind} stream was found at this URL`);
    const size = knownSize(choice.inputs);
    if (size !== undefined && size > this.settings.maxBytes) {
      throw invalidParameter('url', `the media is larger than the limit of ${this.settings.maxBytes} bytes`);
    }
    const dir = await fs.promises.mkdtemp(path.join(this.tempDir, 'media-'));
    const infoFile = await writeInfoFile(dir, 'item', info);
    return { info, choice, dir, infoFile };
  }

  /**
   * One resolution, with the next cookies file of the URL's site when YTDLP_COOKIES_DIR has a
   * pool for it (cookie-pool.ts): a file the site answers with a login or bot check is set
   * aside and the run is tried with the next, then with the host's default (YTDLP_COOKIES_FILE).
   */
  private async runInfoWithCookies(url: string, signal: AbortSignal): Promise<YtInfo> {
    const tried = new Set<CookieFile>();
    for (;;) {
      const cookies = this.cookies.pick(url, tried);
      const host = cookies ? { ...this.settings.ytdlpHost, cookiesFile: cookies.file } : this.settings.ytdlpHost;
      const egress = await this.egress();
      try {
        return await runInfo(this.settings.ytdlp, infoArgs(url, { proxy: egress.url, host }), signal, egress.refusal);
      } catch (error) {
        if (!cookies || !(error instanceof ApiError) || error.code !== 'login_required') throw error;
        this.cookies.setAside(cookies, 'login_required');
        tried.add(cookies);
      }
    }
  }

  /** yt-dlp metadata for a URL, shared by concurrent and close-together calls. */
  resolve(url: string, signal: AbortSignal): Promise<YtInfo> {
    const now = Date.now();
    for (const [key, entry] of this.infos) if (now - entry.at > INFO_REUSE_MS) this.infos.delete(key);
    let entry = this.infos.get(url);
    if (!entry) {
      const info = this.runInfoWithCookies(url, signal);
      entry = { at: now, info, signal };
      this.infos.set(url, entry);
      info.catch(() => this.infos.delete(url)); // failures are not reused
    }
    const { info, signal: starter } = entry;
    // when the caller who started the run has left (and this one has not), run again for this one
    return info.catch((error: unknown) => {
      if (starter === signal || signal.aborted || !starter.aborted) throw error;
      return this.resolve(url, signal);
    });
  }

  /**
   * Run `work` in a media slot with the job timeout. The slot is released when
   * `work` settles, or, if it hands a promise to `finished` (a stream), when that does.
   */
  private async runJob<T>(parent: AbortSignal | undefined, work: (signal: AbortSignal, finished: (p: Promise<unknown>) => void) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const onParentAbort = () => controller.abort(parent!.reason);
    parent?.addEventListener('abort', onParentAbort, { once: true });
    const release = await this.slots.acquire(parent ?? controller.signal).catch((error: unknown) => {
      parent?.removeEventListener('abort', onParentAbort);
      throw error;
    });
    const ms = this.settings.jobTimeoutMs;
    const timer = setTimeout(() => controller.abort(new ApiError('upstream_timeout', `The media job did not finish within ${Math.round(ms / 1000)} s`)), ms);
    let tail: Promise<unknown> | undefined;
    const end = () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
      release();
    };
    try {
      const result = await work(controller.signal, (p) => (tail = p));
      if (tail) tail.then(end, end);
      else end();
      return result;
    } catch (error) {
      controller.abort(error); // whatever the job started dies with it
      end();
      throw error;
    }
  }
}

/** Why shared link work stopped: every caller waiting for it withdrew (wait()). */
class WorkWithdrawn extends Error {
  constructor() {
    super('Every caller of this media work withdrew it');
  }
}

/** Cache key of a job: the source URL and the output profile. */
const jobKey = (url: string, spec: OutputSpec) => crypto.createHash('sha256').update(`${url}\n${spec.format}\n${spec.quality}`).digest('hex');

/** A playlist answer (carousels, `--no-playlist` ignored by the site) stands for its first item. */
function firstItem(info: YtInfo): YtInfo {
  if (info._type !== 'playlist') return info;
  const first = info.entries?.find((e) => e && (e.formats?.length || e.url));
  if (!first) throw notFound('No media was found at this URL');
  return { ...first, title: first.title ?? info.title, thumbnail: first.thumbnail ?? info.thumbnail };
}

function produced(file: CachedFile): Produced {
  const stored = file.meta as unknown as StoredMeta;
  return { ...stored, meta: stored.meta as ItemMeta, size: file.size, download_url: file.url, expires_at: new Date(file.expiresAt).toISOString() };
}

/** The media service of the engine that `setup` belongs to, made on its first media call and stopped with the engine (its scope). */
export function mediaService(setup: MediaSetup): MediaService {
  return setup.scope.own('media', () => new MediaService(setup), { close: (service) => service.close(), stats: (service) => service.slots.stats });
}
