import fs from 'node:fs';
import path from 'node:path';
import type { EngineServices } from '../../contract/call.js';

/**
 * YTDLP_COOKIES_DIR: cookies.txt files of logged-in accounts, a pool per site, for sites
 * that ask a datacenter IP for a login or a bot check: `DIR/<domain>/<any name>.txt`
 * (`youtube.com/a.txt`, `youtube.com/b.txt`, `instagram.com/main.txt`). A URL uses the pool
 * of its host or of the nearest parent domain that has one (www.youtube.com and
 * m.youtube.com use youtube.com's); a symlinked directory gives another domain the same
 * pool (`youtu.be -> youtube.com`). Resolutions take the files in turn. A file whose run
 * ends in `login_required` is set aside (the site no longer takes that login: the host
 * exports a fresh one) and the run is tried with the next; it comes back as soon as its
 * file changes. Sites without a pool, and a pool whose files are all set aside, use
 * YTDLP_COOKIES_FILE as before. Files are listed once, at boot (a file added later needs a restart).
 */
export interface CookieFile {
  /** The pool's directory name (a domain). */
  site: string;
  file: string;
}

export interface CookieState {
  site: string;
  /** The file's name in its pool, never its content. */
  name: string;
  state: 'in_use' | 'set_aside';
  reason?: string;
  since?: string;
}

interface Entry extends CookieFile {
  aside?: { at: number; mtimeMs: number; reason: string };
}

const mtimeOf = (file: string) => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
};

export class CookiePools {
  private readonly pools = new Map<string, { entries: Entry[]; turn: number }>();

  constructor(dir: string | undefined) {
    if (!dir) return;
    let sites: string[];
    try {
      sites = fs.readdirSync(dir).sort();
    } catch (error) {
      throw new Error(`YTDLP_COOKIES_DIR: cannot read ${dir} (${(error as Error).message})`);
    }
    // a symlinked site shares the entries (and their set-aside state) of the directory it points to
    const byRealPath = new Map<string, Entry>();
    for (const site of sites) {
      const siteDir = path.join(dir, site);
      if (!fs.statSync(siteDir).isDirectory()) continue;
      const entries = fs
        .readdirSync(siteDir)
        .filter((name) => name.endsWith('.txt'))
        .sort()
        .map((name) => {
          const file = path.join(siteDir, name);
          const real = fs.realpathSync(file);
          let entry = byRealPath.get(real);
          if (!entry) byRealPath.set(real, (entry = { site: site.toLowerCase(), file }));
          return entry;
        });
      if (entries.length) this.pools.set(site.toLowerCase(), { entries, turn: 0 });
    }
  }

  /** The pool for a URL: its host's, or the nearest parent domain's. */
  private poolOf(url: string) {
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    } catch {
      return undefined;
    }
    for (let name = host; name; name = name.includes('.') ? name.slice(name.indexOf('.') + 1) : '') {
      const pool = this.pools.get(name);
      if (pool) return pool;
    }
    return undefined;
  }

  /**
   * The next file of the URL's pool that is not set aside and not in `skip`, in turn; a
   * set-aside file whose content changed since comes back. Undefined: no pool, or none left.
   */
  pick(url: string, skip: ReadonlySet<CookieFile> = new Set()): CookieFile | undefined {
    const pool = this.poolOf(url);
    if (!pool) return undefined;
    for (let i = 0; i < pool.entries.length; i++) {
      const entry = pool.entries[(pool.turn + i) % pool.entries.length];
      if (skip.has(entry)) continue;
      if (entry.aside && mtimeOf(entry.file) !== entry.aside.mtimeMs) entry.aside = undefined;
      if (entry.aside) continue;
      pool.turn = (pool.turn + i + 1) % pool.entries.length;
      return entry;
    }
    return undefined;
  }

  /** A file the site refused: not used again until its file changes. */
  setAside(file: CookieFile, reason: string): void {
    (file as Entry).aside = { at: Date.now(), mtimeMs: mtimeOf(file.file), reason };
  }

  /** Every file of every pool and whether it is in use, for /metrics. */
  states(): CookieState[] {
    const out: CookieState[] = [];
    for (const [site, pool] of this.pools) {
      for (const entry of pool.entries) {
        if (entry.aside && mtimeOf(entry.file) !== entry.aside.mtimeMs) entry.aside = undefined;
        const aside = entry.aside;
        out.push({
          site,
          name: path.basename(entry.file),
          state: aside ? 'set_aside' : 'in_use',
          ...(aside ? { reason: aside.reason, since: new Date(aside.at).toISOString() } : {}),
        });
      }
    }
    return out;
  }
}

/** The engine's cookie pools (one per engine scope), listed on first use. */
export function cookiePools({ config, scope }: Required<EngineServices>): CookiePools {
  return scope.own('ytdlp-cookies', () => new CookiePools(config.env.YTDLP_COOKIES_DIR || undefined));
}
