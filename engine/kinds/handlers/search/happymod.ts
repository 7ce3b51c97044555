import { notFound, upstreamError } from '../../../core/errors.js';
import { absolute, attr, byClass, byTag, firstByClass, parseHtml, textOf, type Element } from '../../../features/tools/html/dom.js';
import { runPoolTask } from '../pool-tasks.js';
import { handler, poolTask } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/search/happymod: modded Android apps from HappyMod's search page (no API). Each
 * hit is a `div.pdt-app-box`: a link to the app's page around its icon (lazy-loaded:
 * the real URL is in `data-original`), the name in `h3.pdt-app-h3`, the users' rating in
 * `span.a-search-num`. The link's title reads like "Minecraft Mod Apk 1.21.44 [Unlocked]":
 * the version and the mod's features are taken from it where it says them.
 */
const SITE = 'https://happymod.com';
const VERSION = /\b(\d+(?:\.\d+)+[\w.-]*)/;
const FEATURES = /\[([^\]]+)\]/g;

function app(box: Element) {
  const heading = firstByClass(box, 'pdt-app-h3');
  const anchor = (heading && byTag(heading, 'a')[0]) ?? byTag(box, 'a')[0];
  const title = textOf(anchor) || attr(anchor, 'title');
  const link = absolute(attr(anchor, 'href'), SITE);
  if (!title || !link) return undefined;
  const img = byTag(box, 'img')[0];
  const label =
    attr(anchor, 'title') ??
    byTag(box, 'a')
      .map((a) => attr(a, 'title'))
      .find(Boolean) ??
    '';
  const rating = Number.parseFloat(textOf(firstByClass(box, 'a-search-num') ?? firstByClass(box, 'pdt-list-num')));
  const modInfo = [...label.matchAll(FEATURES)].map((m) => m[1]!.trim()).join(', ') || null;
  return {
    title,
    link,
    icon: absolute(attr(img, 'data-original') ?? attr(img, 'data-src') ?? attr(img, 'src'), SITE) ?? null,
    rating: Number.isFinite(rating) ? rating : null,
    version: VERSION.exec(label)?.[1] ?? null,
    mod_info: modInfo,
    // the same facts under the names the genre's clients read (results.data[].name/summary/source/url)
    name: title,
    url: link,
    summary: modInfo,
    source: 'HappyMod',
  };
}

export default handler<Params['search/happymod']>(async ({ params, call, setup }) => {
  const html = await setup.upstreams.text('happymod', { path: '/search.html', query: { q: params.query }, signal: call.signal });
  return runPoolTask('search/happymod#extract', { html, limit: params.limit }, { signal: call.signal, services: setup });
});

/** The page's apps, read in the code pool. */
export const extract = poolTask<{ html: string; limit: number }>()(({ params: { html, ...params } }) => {
  const boxes = byClass(parseHtml(html, { upstream: 'happymod' }), 'pdt-app-box');
  if (!boxes.length) throw notFound('No HappyMod app matches');
  const apps = boxes.map(app).filter((a) => a !== undefined);
  if (!apps.length) throw upstreamError('happymod', 'the search results carry no readable app name or link (the page layout changed)');
  return apps.slice(0, params.limit);
});
