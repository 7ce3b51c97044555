import { DomUtils, parseDocument } from 'htmlparser2';
import type { AnyNode, Document, Element } from 'domhandler';

/**
 * Reading scraped pages with a real HTML parser (htmlparser2, as web2zip and page-data.ts do)
 * instead of regular expressions over markup: attributes in any order, entities
 * decoded, nesting respected. These few helpers cover what search-page scrapers need
 * (find by tag and class, text, attributes, links made absolute).
 */
export type { Element };

export const parseHtml = (html: string): Document => parseDocument(html);

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
