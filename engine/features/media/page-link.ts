import { notFound, upstreamError } from '../../core/errors.js';
import type { AdapterSetup } from '../../contract/call.js';
import he from 'he';

/**
 * File hosts whose pages carry a direct download link (MediaFire): the page is
 * fetched from the host's upstream (the user URL, once its patterns matched, only
 * contributes its path), and manifest regular expressions pick the link and any
 * other fields out of the HTML. The link is handed to the client as is.
 */
export interface PageLinkConfig {
  upstream: string;
  /** Regular expression whose first group is the direct link. */
  link: string;
  /** Alternative whose first group is the link in base64 (MediaFire's `data-scrambled-url`). */
  linkBase64?: string;
  /** Result field -> regular expression whose first group is the value. */
  fields?: Record<string, string>;
}

/** Text taken from HTML: its character references decoded (he: all of HTML's, not a hand-picked few). */
const decodeHtml = (s: string) => he.decode(s).trim();

export function compilePageLink(config: PageLinkConfig) {
  const link = new RegExp(config.link, 'i');
  const linkBase64 = config.linkBase64 ? new RegExp(config.linkBase64, 'i') : undefined;
  const fields = Object.entries(config.fields ?? {}).map(([name, re]) => [name, new RegExp(re, 'i')] as const);

  /** The link and fields of one page's HTML. */
  function read(html: string): Record<string, string | null> & { link: string } {
    const scrambled = linkBase64?.exec(html)?.[1];
    const found = link.exec(html)?.[1] ?? (scrambled && Buffer.from(scrambled, 'base64').toString('utf8'));
    if (!found) throw notFound('No download link on this page (the file may have been removed)');
    const url = decodeHtml(found);
    if (!/^https?:\/\//i.test(url)) throw upstreamError(config.upstream, 'the page has no usable download link');
    const out: Record<string, string | null> = {};
    for (const [name, re] of fields) {
      const value = re.exec(html)?.[1];
      out[name] = value === undefined ? null : decodeHtml(value);
    }
    return { ...out, link: url };
  }

  async function fetchPage(setup: AdapterSetup, userUrl: string, signal: AbortSignal): Promise<string> {
    const { pathname, search } = new URL(userUrl);
    return setup.upstreams.text(config.upstream, { path: `${pathname}${search}`, signal });
  }

  return { read, fetchPage };
}
