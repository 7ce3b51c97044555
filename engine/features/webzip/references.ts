import { DomUtils } from 'htmlparser2';
import { parseHtml } from '../tools/html/dom.js';
import * as csstree from 'css-tree';
import type { Document, Element } from 'domhandler';

/**
 * The sub-resources a page needs to render offline, read with real parsers
 * (htmlparser2 for HTML, css-tree for CSS) and rewritten in place to the archive's
 * relative paths. `rewrite` returns undefined for a reference left as it was (not
 * fetched: another origin's page link, a data: URL, over the limits…).
 */
export type Rewrite = (reference: string) => string | undefined;

/** Attributes that load a resource, by element. Links to other pages (<a href>) stay links. */
const RESOURCE_ATTRS: Record<string, string[]> = {
  img: ['src'],
  script: ['src'],
  source: ['src'],
  video: ['poster', 'src'],
  audio: ['src'],
  track: ['src'],
  input: ['src'],
  embed: ['src'],
};
const LINK_RELS = /\b(stylesheet|icon|apple-touch-icon|manifest|preload|modulepreload)\b/i;

function resourceAttrs(el: Element): string[] {
  if (el.name === 'link') return LINK_RELS.test(el.attribs.rel ?? '') ? ['href'] : [];
  return RESOURCE_ATTRS[el.name] ?? [];
}

/** An HTML page's resources: each attribute reference, and each <style> block and style="" attribute's CSS references. */
export function htmlReferences(html: string): { doc: Document; refs: string[] } {
  const doc = parseHtml(html);
  const refs: string[] = [];
  for (const el of DomUtils.findAll(() => true, doc.children)) {
    for (const attr of resourceAttrs(el)) if (el.attribs[attr]) refs.push(el.attribs[attr]);
    if (el.attribs.style) refs.push(...cssReferences(el.attribs.style, true).refs);
    if (el.name === 'style') refs.push(...cssReferences(DomUtils.textContent(el)).refs);
  }
  return { doc, refs };
}

export function rewriteHtml(doc: Document, rewrite: Rewrite): string {
  for (const el of DomUtils.findAll(() => true, doc.children)) {
    for (const attr of resourceAttrs(el)) {
      const to = el.attribs[attr] && rewrite(el.attribs[attr]);
      if (to) el.attribs[attr] = to;
    }
    // a srcset names several candidates; the src kept above is the one saved
    if (el.attribs.srcset && el.name !== 'link') delete el.attribs.srcset;
    // the archive is opened from disk: an integrity hash or CORS mode would only get in the way
    if (el.attribs.integrity) delete el.attribs.integrity;
    if (el.attribs.style) el.attribs.style = rewriteCss(el.attribs.style, rewrite, true);
    if (el.name === 'style' && el.children[0] && 'data' in el.children[0]) {
      (el.children[0] as { data: string }).data = rewriteCss(DomUtils.textContent(el), rewrite);
    }
  }
  return DomUtils.getOuterHTML(doc, { encodeEntities: 'utf8' });
}

/** url() values and @import targets of a stylesheet (or of one declaration list, for style=""). */
export function cssReferences(css: string, declarations = false): { ast: csstree.CssNode; refs: string[] } {
  const ast = csstree.parse(css, { context: declarations ? 'declarationList' : 'stylesheet', parseValue: true, parseAtrulePrelude: true });
  const refs: string[] = [];
  csstree.walk(ast, (node) => {
    if (node.type === 'Url') refs.push(node.value);
    else if (node.type === 'Atrule' && node.name === 'import' && node.prelude?.type === 'AtrulePrelude') {
      const first = node.prelude.children.first;
      if (first?.type === 'String') refs.push(first.value);
    }
  });
  return { ast, refs };
}

export function rewriteCss(css: string, rewrite: Rewrite, declarations = false): string {
  const { ast } = cssReferences(css, declarations);
  csstree.walk(ast, (node) => {
    if (node.type === 'Url') node.value = rewrite(node.value) ?? node.value;
    else if (node.type === 'Atrule' && node.name === 'import' && node.prelude?.type === 'AtrulePrelude') {
      const first = node.prelude.children.first;
      if (first?.type === 'String') first.value = rewrite(first.value) ?? first.value;
    }
  });
  return csstree.generate(ast);
}
