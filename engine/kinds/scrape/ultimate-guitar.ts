import type { AdapterSetup } from '../../contract/call.js';
import { runPoolTask } from '../handlers/pool-tasks.js';
import { upstreamError } from '../../core/errors.js';
import { attr, firstByClass, parseHtml } from '../../features/tools/html/dom.js';

/**
 * Ultimate Guitar, read the way its own pages are built: the server puts each page's
 * data as JSON in `<div class="js-store" data-content="…">` (HTML-escaped), under
 * `store.page.data` — the search results on the search page, the chord sheet
 * (`tab_view.wiki_tab.content`, chords marked `[ch]Am[/ch]`, lyric blocks `[tab]…[/tab]`)
 * and its meta (key, capo, tuning) on a tab page.
 */
export const UG_SEARCH = 'ultimate-guitar';
export const UG_TABS = 'ultimate-guitar-tabs';

export interface SearchHit {
  id?: number;
  song_name?: string;
  artist_name?: string;
  type?: string;
  version?: number;
  votes?: number;
  rating?: number;
  tonality_name?: string;
  tab_access_type?: string;
  tab_url?: string;
  marketing_type?: string;
}

export interface TabPage {
  tab?: SearchHit;
  tab_view?: {
    wiki_tab?: { content?: string };
    meta?: { capo?: number; tonality?: string; difficulty?: string; tuning?: { name?: string; value?: string } };
  };
}

type Setup = Pick<AdapterSetup, 'upstreams' | 'config' | 'scope'>;

/** `store.page.data` of a page, read in the code pool (search/chord's `readStore`). */
const readStore = (setup: Setup, html: string, upstream: string, signal: AbortSignal) =>
  runPoolTask('search/chord#readStore', { html, upstream }, { signal, services: setup });

/** The search page's results for a song title (every type: chords, tabs, official, pro…). */
export async function searchSongs(setup: Setup, query: string, signal: AbortSignal): Promise<SearchHit[]> {
  const html = await setup.upstreams.text(UG_SEARCH, { path: '/search.php', query: { search_type: 'title', value: query }, signal });
  const results = ((await readStore(setup, html, UG_SEARCH, signal)) as { results?: unknown }).results;
  if (!Array.isArray(results)) throw upstreamError(UG_SEARCH, 'no search results in the page');
  return results as SearchHit[];
}

/** A tab page's data, by the tab's path on tabs.ultimate-guitar.com (`/tab/<artist>/<song>-chords-<id>`). */
export async function tabPage(setup: Setup, tabPath: string, signal: AbortSignal): Promise<TabPage> {
  const html = await setup.upstreams.text(UG_TABS, { path: tabPath, signal });
  return (await readStore(setup, html, UG_TABS, signal)) as TabPage;
}

/** `store.page.data` of a page's js-store JSON. */
export function pageData(html: string, upstream: string): Record<string, unknown> {
  const content = attr(firstByClass(parseHtml(html, { upstream }), 'js-store'), 'data-content');
  if (content === undefined) throw upstreamError(upstream, 'the page has no js-store data (its layout changed, or a bot check answered)');
  let data: unknown;
  try {
    data = (JSON.parse(content) as { store?: { page?: { data?: unknown } } }).store?.page?.data;
  } catch {
    throw upstreamError(upstream, 'the js-store data is not JSON');
  }
  if (!data || typeof data !== 'object') throw upstreamError(upstream, 'no page data in the js-store JSON');
  return data as Record<string, unknown>;
}

/** The sheet as plain text: `[ch]Am[/ch]` → `Am`, the `[tab]` block marks dropped, Windows line ends made plain. */
export function plainSheet(content: string): string {
  return content
    .replace(/\[ch\]([^[]*)\[\/ch\]/g, '$1')
    .replace(/\[\/?tab\]/g, '')
    .replace(/\r\n?/g, '\n')
    .trim();
}

/** The chords a sheet uses, in order of first appearance. */
export function chordNames(content: string): string[] {
  return [...new Set([...content.matchAll(/\[ch\]([^[]+)\[\/ch\]/g)].map((m) => m[1].trim()).filter(Boolean))];
}
