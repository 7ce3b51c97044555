import { createHash } from 'node:crypto';
import type { AdapterSetup } from '../../../contract/call.js';
import { ApiError, notFound, upstreamError } from '../../../core/errors.js';
import { urlMatcher } from '../../../features/media/url-match.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/download/gofile: the files of a shared GoFile folder (gofile.io/d/<code>), read
 * from GoFile's API the way gofile.io's download page reads it: an account token (an
 * operator's GOFILE_TOKEN, else a new guest account from POST /accounts), then
 * GET /contents/<code> with that token and the page's website token (X-Website-Token:
 * SHA-256 of user agent, language, account token, the 4-hour period and the page
 * script's salt, GOFILE_WT_SALT when GoFile changes it). Only the folder code is taken
 * from the user's URL. The result is GoFile's folder record as its clients read it:
 * `name`, and `children` keyed by id, each file with its name, size, MIME type, dates,
 * download count and direct `link`.
 */
const URLS = ['^https?://(?:www\\.)?gofile\\.io/d/[A-Za-z0-9-]+/?(?:[?#].*)?$'];
const matcher = urlMatcher(URLS, 'GoFile');
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const LANGUAGE = 'en-GB';
const DEFAULT_SALT = 'gf2026x';

interface Envelope<T> {
  status: string;
  data?: T;
}
type Content = Record<string, unknown> & { children?: Record<string, Record<string, unknown>> };

export const folderCode = (url: string): string => /\/d\/([A-Za-z0-9-]+)/.exec(url)![1]!;

/** The website token gofile.io's page sends with an account token, for the current 4-hour period. */
export function websiteToken(accountToken: string, salt: string, now = Date.now()): string {
  return createHash('sha256')
    .update(`${USER_AGENT}::${LANGUAGE}::${accountToken}::${Math.floor(now / 1000 / 14400)}::${salt}`)
    .digest('hex');
}

async function accountToken(setup: AdapterSetup, signal: AbortSignal): Promise<string> {
  const configured = setup.config.env.GOFILE_TOKEN;
  if (configured) return configured;
  const answer = await setup.upstreams.call<Envelope<{ token?: unknown }>>('gofile', {
    path: '/accounts',
    method: 'POST',
    json: {},
    headers: { 'User-Agent': USER_AGENT },
    signal,
  });
  const token = answer?.data?.token;
  if (answer?.status !== 'ok' || typeof token !== 'string' || !token) throw upstreamError('gofile', `no guest account (${String(answer?.status)})`);
  return token;
}

const FILE_FIELDS = ['id', 'type', 'name', 'size', 'mimetype', 'md5', 'createTime', 'modTime', 'downloadCount', 'serverSelected', 'link', 'thumbnail'];
const FOLDER_FIELDS = ['id', 'type', 'name', 'code', 'createTime', 'modTime', 'childrenCount', 'totalSize', 'totalDownloadCount'];
const pick = (record: Record<string, unknown>, fields: string[]) => Object.fromEntries(fields.map((f) => [f, record[f] ?? null]));

export default handler<Params['download/gofile']>(async ({ params, call, setup }) => {
  matcher.check(params.url);
  const code = folderCode(params.url);
  const token = await accountToken(setup, call.signal);
  const missing = 'No GoFile folder at this address (it was removed or expired)';
  const answer = await setup.upstreams.call<Envelope<Content>>('gofile', {
    path: `/contents/${encodeURIComponent(code)}`,
    headers: {
      Authorization: `Bearer ${token}`,
      'X-Website-Token': websiteToken(token, setup.config.env.GOFILE_WT_SALT ?? DEFAULT_SALT),
      'X-BL': LANGUAGE,
      'User-Agent': USER_AGENT,
    },
    signal: call.signal,
    notFound: missing,
  });
  switch (answer?.status) {
    case 'ok':
      break;
    case 'error-notFound':
      throw notFound(missing);
    case 'error-passwordRequired':
    case 'error-passwordWrong':
      throw new ApiError('media_unavailable', 'This GoFile folder is password-protected');
    default:
      throw upstreamError('gofile', `GoFile answered ${String(answer?.status)} (GOFILE_WT_SALT may need GoFile's current salt, or set GOFILE_TOKEN)`);
  }
  const data = answer.data;
  if (!data || typeof data !== 'object' || typeof data.children !== 'object' || data.children === null) {
    throw upstreamError('gofile', 'unexpected response shape');
  }
  if (data.canAccess === false) throw new ApiError('media_unavailable', 'This GoFile folder is not public');
  const children = Object.fromEntries(Object.entries(data.children).map(([id, child]) => [id, pick({ id, ...child }, FILE_FIELDS)]));
  return { ...pick(data, FOLDER_FIELDS), children, source_url: params.url };
});
