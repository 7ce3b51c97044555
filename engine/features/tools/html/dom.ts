import { DomHandler, DomUtils, Parser } from 'htmlparser2';
import type { AnyNode, Document, Element } from 'domhandler';
import { tooComplex, upstreamError, type ApiError } from '../../../core/errors.js';

/**
 * Reading scraped pages with a real HTML parser (htmlparser2, as web2zip and page-data.ts do)
 * instead of regular expressions over markup: attributes in any order, entities
 * decoded, nesting respected. These few helpers cover what search-page scrapers need
 * (find by tag and class, text, attributes, links made absolute).
 */
export type { Element };

/**
 * How deeply a page's elements may nest. Scraped pages are input like any other: the
 * parser keeps its open elements in an array it shifts at every tag (10,000 nested divs
 * took 0.8 s, 100,000 took 30 s) and every walk over the tree recurses (past a few
 * thousand levels, a stack overflow). Real pages nest a few dozen levels.
 */
export const HTML_MAX_DEPTH = 256;

/** A DOM builder that fails with `tooDeep()` at the tag that nests deeper than `maxDepth`. */
class BoundedHandler extends DomHandler {
  private depth = 0;
  constructor(
    private readonly maxDepth: number,
    private readonly tooDeep: () => ApiError,
  ) {
    super(undefined, { withStartIndices: false, withEndIndices: false });
  }
  override onopentag(name: string, attribs: Record<string, string>): void {
    if (++this.depth > this.maxDepth) throw this.tooDeep();
    super.onopentag(name, attribs);
  }
  override onclosetag(): void {
    this.depth--;
    super.onclosetag();
  }
}

/**
 * The page as a DOM. One nested deeper than HTML_MAX_DEPTH is refused: as 502
 * `upstream_error` naming `upstream` for a page an upstream served, as 422 `too_complex`
 * for a page the client pointed at.
 */
export function parseHtml(html: string, options: { upstream?: string; maxDepth?: number } = {}): Document {
  const maxDepth = options.maxDepth ?? HTML_MAX_DEPTH;
  const why = `the page nests elements more than ${maxDepth} deep`;
  const handler = new BoundedHandler(maxDepth, () => (options.upstream ? upstreamError(options.upstream, why) : tooComplex(why)));
  new Parser(handler).end(html);
  return handler.root;
}

const classes = (el: Element) => (el.attribs.class ?? '').split(/\s+/);

/** Every element under `root` (itself excluded) with the class, and the tag when given. */
export function byClass(root: AnyNode | AnyNode[], className: string, tag?: string): Element[] {
  const nodes = Array.isArray(root) ? root : 'children' in root ? (root.children as AnyNode[]) : [];
  return DomUtils.findAll((el) => (!tag || el.name === tag) && classes(el).includes(className), nodes);
}

export const firstByClass = (root: AnyNode | AnyNode[], className: string, tag?: string): Element | undefined => byClass(root, className, tag)[0];

/** Every element under `root` with the tag name. */
export const byTag = (root: AnyNode | AnyNode[], tag: string): Element[] => DomUtils.getElementsByTagName(tag, root, true);

/** An element's text, whitespace collapsed; '' for none. */
export const textOf = (node: AnyNode | undefined): string => (node ? DomUtils.textContent(node).replace(/\s+/g, ' ').trim() : '');

/** An attribute's trimmed value, or undefined when absent or empty. */
export const attr = (el: Element | undefined, name: string): string | undefined => el?.attribs[name]?.trim() || undefined;

/** A link resolved against the site's public origin (not the configured base URL, which tests point at a fixture server). */
export function absolute(href: string | undefined, origin: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, origin);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
