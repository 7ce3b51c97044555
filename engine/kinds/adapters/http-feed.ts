import type Parser from 'rss-parser';
import { upstreamError } from '../../core/errors.js';

/**
 * RSS 2.0 / Atom / RSS 1.0 feeds read with rss-parser into plain JSON for the http
 * adapter's JMESPath mapping: {title, link, description, items: [{title, link, pubDate,
 * isoDate, creator, content, contentSnippet, guid, categories, source}]}. `source` is
 * the item's <source> element (the publisher, in news aggregators' feeds).
 */
let parser: Promise<Parser<Record<string, unknown>, { source?: unknown }>> | undefined;
// rss-parser (with xml2js) loads on the first feed, not at boot
const feedParser = () => (parser ??= import('rss-parser').then(({ default: RssParser }) => new RssParser({ customFields: { item: ['source'] } })));

export async function parseFeed(upstream: string, xml: string): Promise<unknown> {
  const parser = await feedParser();
  let feed: Awaited<ReturnType<typeof parser.parseString>>;
  try {
    feed = await parser.parseString(xml);
  } catch {
    throw upstreamError(upstream, 'response is not a valid RSS or Atom feed');
  }
  // JSON round trip: xml2js leaves objects with a null prototype and undefined fields that JMESPath should not see.
  return JSON.parse(
    JSON.stringify({
      ...feed,
      items: feed.items.map((item) => ({ ...item, source: sourceName(item.source) })),
    }),
  );
}

/** <source url="…">Name</source> parses to {_: 'Name', $: {url}}; a bare element to a string. */
function sourceName(source: unknown): string | undefined {
  if (typeof source === 'string') return source;
  if (source && typeof source === 'object' && '_' in source) return String((source as { _: unknown })._);
  return undefined;
}
