import { unsupportedUrl } from '../../core/errors.js';

/**
 * A downloader's accepted URLs, from its manifest: regular expressions that must
 * match the whole URL from the scheme on (the manifest schema requires the `^https?://`
 * anchor, so a pattern cannot be fooled by a known host inside another site's path).
 * No patterns means any http(s) URL (the all-in-one downloader).
 */
export interface UrlMatcher {
  /** Throws 400 unsupported_url when the URL belongs to no accepted site. */
  check(url: string, param?: string): void;
  matches(url: string): boolean;
}

export function urlMatcher(patterns: string[] | undefined, site: string): UrlMatcher {
  const compiled = (patterns ?? []).map((p) => new RegExp(p, 'i'));
  const matches = (url: string) => {
    if (compiled.length === 0) return /^https?:\/\//i.test(url);
    return compiled.some((re) => re.test(url));
  };
  return {
    matches,
    check(url, param = 'url') {
      if (!matches(url)) throw unsupportedUrl(param, compiled.length ? `not a ${site} URL` : 'only http and https URLs are allowed');
    },
  };
}
