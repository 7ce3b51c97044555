import fs from 'node:fs';
import { captureTool } from './child.js';

/**
 * Which yt-dlp the downloaders run and how old it is, for /health. Sites change their
 * pages every few weeks and yt-dlp follows with dated releases (2025.10.22), so age is
 * the best sign of a downloader about to break: older than 60 days gets a warning.
 */
export interface YtdlpStatus {
  path: string;
  version: string | null;
  /** Days since the release its version names (stable releases are dated). */
  age_days: number | null;
  warning?: string;
}

export const STALE_AFTER_DAYS = 60;
const RECHECK_MS = 60 * 60 * 1000;

/** A version's release date: yt-dlp versions are YYYY.MM.DD (nightlies add .HHMMSS). */
export function releaseDate(version: string): Date | undefined {
  const m = /^(\d{4})\.(\d{2})\.(\d{2})/.exec(version.trim());
  if (!m) return undefined;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function describeVersion(path: string, version: string | null, now = new Date()): YtdlpStatus {
  if (!version) return { path, version: null, age_days: null, warning: `${path} is not installed or did not answer --version: downloaders are unavailable` };
  const released = releaseDate(version);
  const age = released ? Math.floor((now.getTime() - released.getTime()) / 86_400_000) : null;
  const status: YtdlpStatus = { path, version, age_days: age };
  if (age !== null && age > STALE_AFTER_DAYS) {
    status.warning = `yt-dlp ${version} is ${age} days old (over ${STALE_AFTER_DAYS}): sites change often, update it with \`npm run ytdlp:update\` (it replaces the file YTDLP_PATH names)`;
  }
  return status;
}

let checked: { at: number; status: Promise<YtdlpStatus>; path: string; modified: number | undefined } | undefined;

/** When the file at `bin` last changed; undefined for a bare name found on PATH (the hourly recheck covers those). */
function modifiedAt(bin: string): number | undefined {
  if (!bin.includes('/')) return undefined;
  try {
    return fs.statSync(bin).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * The status, asking the binary at most once an hour (a /health call or a scrape never
 * waits on more than one run), and again at once when the file changed: `npm run
 * ytdlp:update` renames a new release over it, and the next scrape shows the new version.
 */
export function ytdlpStatus(env: Readonly<Record<string, string | undefined>>): Promise<YtdlpStatus> {
  const path = env.YTDLP_PATH || 'yt-dlp';
  const modified = modifiedAt(path);
  if (!checked || checked.path !== path || checked.modified !== modified || Date.now() - checked.at > RECHECK_MS) {
    const status = captureTool(path, ['--version'], { signal: AbortSignal.timeout(5000), maxBytes: 4096 }).then(
      (out) => describeVersion(path, out.trim().split('\n')[0] || null),
      () => describeVersion(path, null),
    );
    checked = { at: Date.now(), status, path, modified };
  }
  return checked.status;
}
