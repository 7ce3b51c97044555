import { DomUtils } from 'htmlparser2';
import type { Document } from 'domhandler';
import { byTag, parseHtml, textOf } from './dom.js';

/**
 * The data a public web page carries for machines: its Open Graph / meta tags, the JSON
 * a single-page app embeds in a `<script id=…>` for hydration, and the text of its
 * headings. Read with htmlparser2 (a real parser: attribute order, quoting and entities
 * are its business), for the profile and channel lookups that read public pages.
 */
export class PageData {
  private readonly doc: Document;

  /** `upstream`: who served the page, named in the 502 for a page nested too deep to read. */
  constructor(html: string, upstream: string) {
    this.doc = parseHtml(html, { upstream });
  }

  /** The `content` of `<meta property=key>` or `<meta name=key>` (og:title, description…), trimmed; undefined when absent or empty. */
  meta(key: string): string | undefined {
    const el = DomUtils.findOne((e) => e.name === 'meta' && (e.attribs.property === key || e.attribs.name === key), this.doc.children);
    return el?.attribs.content?.trim() || undefined;
  }

  /** The JSON inside `<script id=id>`, or undefined when there is no such script or it is not JSON. */
  scriptJson<T = unknown>(id: string): T | undefined {
    const el = DomUtils.getElementById(id, this.doc.children);
    if (!el || el.name !== 'script') return undefined;
    try {
      return JSON.parse(DomUtils.textContent(el)) as T;
    } catch {
      return undefined;
    }
  }

  /** The whitespace-collapsed text of every element named `tag` (h3, h5, title…), in document order. */
  texts(tag: string): string[] {
    return byTag(this.doc, tag).map(textOf).filter(Boolean);
  }
}

const SCALE: Record<string, number> = { '': 1, K: 1e3, M: 1e6, B: 1e9 };

/**
 * A count as pages print it for people — `8,305`, `8.3K`, `1.2M` — as a number
 * (approximate when abbreviated: that is all the page says), or undefined.
 */
export function displayCount(text: string): number | undefined {
  const m = /(\d[\d,]*(?:\.\d+)?)\s*([KMB]?)\b/i.exec(text);
  if (!m) return undefined;
  return Math.round(Number(m[1].replace(/,/g, '')) * SCALE[m[2].toUpperCase()]);
}
