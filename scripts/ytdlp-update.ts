/**
 * `npm run ytdlp:update -- [VERSION|latest] [--dest FILE] [--asset NAME] [--from URL]`
 *
 * Replaces the yt-dlp that Manifold runs with a release from GitHub, without rebuilding
 * anything: sites change every few weeks and yt-dlp follows with dated releases, so a
 * host updates it in place (the Docker image runs this at build time too, with the
 * version it pins). The file is checked against the SHA2-256SUMS published with that
 * release before it replaces anything, and must answer `--version` with the release it
 * claims to be; on any failure the installed yt-dlp stays as it was.
 *
 * - VERSION: a release tag such as 2026.08.19; `latest` (the default) is the newest release.
 * - --dest: the file to replace; default YTDLP_PATH (the image sets /opt/yt-dlp/yt-dlp).
 * - --asset: the release file; default `yt-dlp` (the zipimport build, run by python3 ≥ 3.10);
 *   `yt-dlp_linux` is the standalone x86-64 build for hosts without Python.
 * - --from: where releases are, default https://github.com/yt-dlp/yt-dlp/releases (a mirror
 *   with the same layout, or a local server in the tests).
 *
 * Exit status: 0 installed, 1 refused or failed (nothing replaced), 2 bad arguments.
 */
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export const RELEASES = 'https://github.com/yt-dlp/yt-dlp/releases';
/** yt-dlp's standalone builds are ~35 MB; anything far larger is not a yt-dlp. */
const MAX_ASSET_BYTES = 256 * 1024 * 1024;
const MAX_SUMS_BYTES = 64 * 1024;
const DOWNLOAD_TIMEOUT_MS = 10 * 60 * 1000;

export interface UpdateOptions {
  /** A release tag (YYYY.MM.DD, nightlies add .N) or `latest`. */
  version: string;
  dest: string;
  asset: string;
  from: string;
}

export interface Installed {
  version: string;
  sha256: string;
  dest: string;
}

/** A refusal with the reason a host reads; nothing was replaced. */
export class UpdateRefused extends Error {}

const VERSION = /^\d{4}\.\d{2}\.\d{2}(\.\d+)?$/;
const ASSET = /^yt-dlp[\w.-]*$/;

/** The URL of one file of a release: `latest/download/F` or `download/TAG/F`, as GitHub lays them out. */
export function releaseFileUrl(from: string, version: string, file: string): string {
  const base = from.replace(/\/+$/, '');
  return version === 'latest' ? `${base}/latest/download/${file}` : `${base}/download/${version}/${file}`;
}

/** The SHA-256 that a GNU-style sums file (`<hex>  <name>`, `*` before binary names) gives for `asset`. */
export function expectedSha256(sums: string, asset: string): string | undefined {
  for (const line of sums.split('\n')) {
    const m = /^([0-9a-f]{64})\s+\*?(.+?)\s*$/i.exec(line.trim());
    if (m && m[2] === asset) return m[1].toLowerCase();
  }
  return undefined;
}

async function get(url: string, signal: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { signal, redirect: 'follow' });
  } catch (error) {
    throw new UpdateRefused(`could not fetch ${url}: ${(error as Error).message}`);
  }
  if (!res.ok) throw new UpdateRefused(`${url} answered ${res.status}${res.status === 404 ? ' (no such release or file)' : ''}`);
  return res;
}

/** Read a response body into `file` (at most `max` bytes), returning its SHA-256. */
async function download(res: Response, file: string, max: number): Promise<string> {
  const hash = crypto.createHash('sha256');
  const out = fs.createWriteStream(file, { mode: 0o600 });
  let size = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > max) throw new UpdateRefused(`the download is larger than ${max} bytes: not a yt-dlp release`);
      hash.update(chunk);
      if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
    }
  } finally {
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
  return hash.digest('hex');
}

function versionOf(bin: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, ['--version'], { timeout: 60_000, maxBuffer: 64 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new UpdateRefused(`the downloaded file does not run (${String(stderr).trim() || error.message})`));
      else resolve(String(stdout).trim().split('\n')[0] ?? '');
    });
  });
}

export async function updateYtdlp(options: UpdateOptions, log: (line: string) => void = () => {}): Promise<Installed> {
  const { version, dest, asset, from } = options;
  if (version !== 'latest' && !VERSION.test(version)) throw new UpdateRefused(`version must be a release tag such as 2026.08.19, or latest: got ${version}`);
  if (!ASSET.test(asset)) throw new UpdateRefused(`asset must be a yt-dlp release file name such as yt-dlp or yt-dlp_linux: got ${asset}`);
  const signal = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);

  const sumsUrl = releaseFileUrl(from, version, 'SHA2-256SUMS');
  const sumsRes = await get(sumsUrl, signal);
  const sums = await sumsRes.text();
  if (sums.length > MAX_SUMS_BYTES) throw new UpdateRefused(`${sumsUrl} is not a checksum list (${sums.length} bytes)`);
  const expected = expectedSha256(sums, asset);
  if (!expected) throw new UpdateRefused(`${sumsUrl} lists no checksum for ${asset}`);

  // next to the destination, so the final rename is atomic and never crosses file systems
  const dir = path.dirname(path.resolve(dest));
  const temp = path.join(dir, `.${path.basename(dest)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`);
  try {
    const assetUrl = releaseFileUrl(from, version, asset);
    log(`downloading ${assetUrl}`);
    const actual = await download(await get(assetUrl, signal), temp, MAX_ASSET_BYTES);
    if (actual !== expected) throw new UpdateRefused(`checksum mismatch for ${asset}: SHA2-256SUMS says ${expected}, the download is ${actual}`);
    await fs.promises.chmod(temp, 0o755);
    const answered = await versionOf(temp);
    if (!VERSION.test(answered)) throw new UpdateRefused(`the downloaded file answered --version with "${answered.slice(0, 80)}", not a yt-dlp version`);
    if (version !== 'latest' && answered !== version) throw new UpdateRefused(`asked for ${version}, the download says it is ${answered}`);
    await fs.promises.rename(temp, dest);
    return { version: answered, sha256: actual, dest };
  } finally {
    await fs.promises.rm(temp, { force: true });
  }
}

function usage(): string {
  return 'usage: npm run ytdlp:update -- [VERSION|latest] [--dest FILE] [--asset yt-dlp|yt-dlp_linux] [--from RELEASES_URL]';
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { dest: { type: 'string' }, asset: { type: 'string', default: 'yt-dlp' }, from: { type: 'string', default: RELEASES } },
    });
  } catch (error) {
    console.error(`ytdlp:update: ${(error as Error).message}\n${usage()}`);
    return 2;
  }
  const dest = parsed.values.dest ?? process.env.YTDLP_PATH;
  if (parsed.positionals.length > 1 || !dest || !path.isAbsolute(dest)) {
    console.error(`ytdlp:update: ${dest ? 'the destination must be an absolute path' : 'say where yt-dlp goes: --dest FILE or YTDLP_PATH'}\n${usage()}`);
    return 2;
  }
  const version = parsed.positionals[0] ?? 'latest';
  try {
    const installed = await updateYtdlp({ version, dest, asset: parsed.values.asset, from: parsed.values.from }, (line) =>
      console.log(`ytdlp:update: ${line}`),
    );
    console.log(
      `ytdlp:update: yt-dlp ${installed.version} installed at ${installed.dest} (sha256 ${installed.sha256}, checked against the release's SHA2-256SUMS)`,
    );
    return 0;
  } catch (error) {
    const why = error instanceof UpdateRefused ? error.message : `failed: ${(error as Error).message}`;
    console.error(`ytdlp:update: refused, ${dest} left as it was: ${why}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
