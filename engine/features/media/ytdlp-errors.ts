import { ApiError, unsupportedUrl, upstreamError } from '../../core/errors.js';
import { ToolFailed } from './child.js';

/**
 * yt-dlp's failures, classified into the few things a client or a host can act on.
 * Each has a stable code (docs/using/endpoints.md, Downloaders); stderr is matched, never echoed
 * (it can hold URLs with tokens). Order matters: "Private video. Sign in if you've been
 * granted access" is about availability, not a bot check, so availability goes first.
 *
 * - `media_unavailable` (404): removed, private, members-only, geo-blocked or not yet live.
 * - `login_required` (502): the site wants a login or a bot check (YouTube's "confirm
 *   you're not a bot", age gates, Instagram's rate-limit-or-login): the host fixes it with
 *   YTDLP_COOKIES_FILE, MEDIA_PROXY or YTDLP_EXTRA_ARGS (PO tokens), not the client.
 * - `unsupported_url` (400): no extractor and no media found at the URL.
 * - `extractor_broken` (502): yt-dlp's extractor failed on the page (the site changed):
 *   the host should update yt-dlp.
 */
const UNAVAILABLE: [RegExp, string][] = [
  [
    /not (?:made this video )?available in your country|geo[- ]?restrict|blocked (?:it )?in your country|IP address is blocked/i,
    "it is blocked in the server's region",
  ],
  [/Private video|This video is private|is private|members[- ]only|Join this channel/i, 'it is private or for members only'],
  [
    /has been removed|video has been terminated|account .*terminated|does not exist|no longer available|HTTP Error 404|Video unavailable|(?<!format )is not available|content isn'?t available|This live event will begin|Premieres in/i,
    'it was removed, is not available or has not started yet',
  ],
];
/** Phrases that mean a login or bot check whatever else the line says ("not available, rate-limit reached or login required"). */
const SURELY_LOGIN = /confirm you(?:’|')re not a bot|confirm your age|rate-limit reached or login required|requires authentication/i;
const LOGIN =
  /Sign in to confirm|confirm you(?:’|')re not a bot|login required|log in|requires? authentication|use --cookies|age[- ]restrict|inappropriate for some users|rate-limit reached|HTTP Error 429|HTTP Error 403: Forbidden/i;
const BROKEN =
  /Unable to extract|please report this issue|Failed to parse JSON|nsig extraction failed|Requested format is not available|No video formats found|KeyError|TypeError|Unable to download (?:webpage|API page)|Got error: .*Unexpected/i;

export function ytdlpFailure(error: unknown, refusal?: string): Error {
  const param = 'url';
  if (refusal) return unsupportedUrl(param, `the media leads to a refused address (${refusal})`);
  if (!(error instanceof ToolFailed)) return error instanceof Error ? error : new Error(String(error));
  if (error.code === null) return upstreamError('yt-dlp', 'it could not be started');
  // the ERROR line is the reason; warnings and tracebacks around it are not
  const text =
    error.stderr
      .split('\n')
      .filter((line) => /^ERROR:|Error|error:/i.test(line))
      .join('\n') || error.stderr;
  if (/Unsupported URL/i.test(text)) return unsupportedUrl(param, 'no media found at this URL');
  const unavailable = SURELY_LOGIN.test(text) ? undefined : UNAVAILABLE.find(([pattern]) => pattern.test(text));
  // otherwise a private or removed item that also says "sign in" is about availability
  if (unavailable) {
    return new ApiError('media_unavailable', `The media is not available: ${unavailable[1]}`);
  }
  if (LOGIN.test(text)) {
    return new ApiError(
      'login_required',
      'The media site asks for a login or a bot check from this server (the host can set YTDLP_COOKIES_FILE, MEDIA_PROXY or YTDLP_EXTRA_ARGS)',
    );
  }
  if (BROKEN.test(text))
    return new ApiError('extractor_broken', "yt-dlp could not read this site's page (its extractor may be out of date: the host should update yt-dlp)");
  return upstreamError('the media site', 'extraction failed');
}
