import { notFound, upstreamError } from '../../../core/errors.js';
import { chordNames, pageData, plainSheet, searchSongs, tabPage, UG_TABS, type SearchHit } from '../../scrape/ultimate-guitar.js';
import { handler, poolTask } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Other chord sheets listed beside the one returned. */
const MORE = 10;

/**
 * /api/search/chord: the guitar chords of a song from Ultimate Guitar. The search page
 * ranks songs by relevance; of the public chord sheets of the first song found, the one
 * with the most votes is read (the site's own "best version" pick), and the other
 * chord sheets found are listed with their links.
 */
export default handler<Params['search/chord']>(async ({ params, call, setup }) => {
  const hits = (await searchSongs(setup, params.query, call.signal)).filter(isChordSheet);
  if (!hits.length) throw notFound('No chords found for this song');
  const sameSong = (h: SearchHit) => h.song_name === hits[0].song_name && h.artist_name === hits[0].artist_name;
  const best = hits.filter(sameSong).reduce((a, b) => ((b.votes ?? 0) > (a.votes ?? 0) ? b : a));
  const page = await tabPage(setup, new URL(best.tab_url!).pathname, call.signal);
  const content = page.tab_view?.wiki_tab?.content;
  if (typeof content !== 'string') throw upstreamError(UG_TABS, 'no chord sheet in the tab page');
  const meta = page.tab_view?.meta ?? {};
  const tab = page.tab ?? best;
  return {
    title: tab.song_name ?? best.song_name,
    artist: tab.artist_name ?? best.artist_name,
    url: best.tab_url,
    key: meta.tonality || tab.tonality_name || null,
    capo: typeof meta.capo === 'number' ? meta.capo : null,
    tuning: meta.tuning?.value ?? null,
    tuning_name: meta.tuning?.name ?? null,
    difficulty: meta.difficulty ?? null,
    rating: typeof tab.rating === 'number' ? Math.round(tab.rating * 100) / 100 : null,
    votes: tab.votes ?? null,
    version: tab.version ?? null,
    chord_names: chordNames(content),
    chords: plainSheet(content),
    source: 'ultimate-guitar',
    more: hits
      .filter((h) => h !== best)
      .slice(0, MORE)
      .map((h) => ({
        title: h.song_name,
        artist: h.artist_name,
        url: h.tab_url,
        version: h.version ?? null,
        votes: h.votes ?? null,
        key: h.tonality_name || null,
      })),
  };
});

/** A free chord sheet on UG's tab host: not an official/Pro upsell entry, not tabs or ukulele chords. */
function isChordSheet(hit: SearchHit): boolean {
  if (hit.type !== 'Chords' || hit.marketing_type || (hit.tab_access_type && hit.tab_access_type !== 'public')) return false;
  try {
    const url = new URL(hit.tab_url ?? '');
    return url.protocol === 'https:' && /(^|\.)ultimate-guitar\.com$/.test(url.hostname) && url.pathname.startsWith('/tab/');
  } catch {
    return false;
  }
}

/** An Ultimate Guitar page's js-store data, read in the code pool (engine/kinds/scrape/ultimate-guitar.ts). */
export const readStore = poolTask<{ html: string; upstream: string }>()(({ params }) => pageData(params.html, params.upstream));
