import { DomUtils } from 'htmlparser2';
import { notFound, upstreamError } from '../../../core/errors.js';
import { absolute, attr, byClass, byTag, firstByClass, parseHtml, textOf, type Element } from '../../../features/tools/html/dom.js';
import { runPoolTask } from '../pool-tasks.js';
import { handler, poolTask } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/search/apkmirror: Android APK releases from APKMirror's search page (no API).
 * Each hit is a `div.appRow`: icon (`img.ellipsisText`), title and release page in
 * `h5.appRowTitle > a`, developer in `a.byDeveloper` ("by …"); the `div.infoSlide`
 * right after it lists the release's facts as name/value pairs (Version:, Uploaded:,
 * File size:, Downloads:), read by name so their order does not matter.
 */
const SITE = 'https://www.apkmirror.com';

/** The infoSlide's facts by lowercased name without the colon: {version: '2.24.24.76', uploaded: …}. */
function facts(slide: Element | null): Record<string, Element> {
  const out: Record<string, Element> = {};
  if (!slide || !(slide.attribs.class ?? '').split(/\s+/).includes('infoSlide')) return out;
  for (const name of byClass(slide, 'infoSlide-name')) {
    const value = DomUtils.nextElementSibling(name);
    if (value) out[textOf(name).replace(/:$/, '').toLowerCase()] = value;
  }
  return out;
}

function release(row: Element) {
  const anchor = byTag(firstByClass(row, 'appRowTitle') ?? [], 'a')[0];
  const title = textOf(anchor);
  const link = absolute(attr(anchor, 'href'), SITE);
  if (!title || !link) return undefined;
  const info = facts(DomUtils.nextElementSibling(row));
  const uploaded = info.uploaded && (attr(byClass(info.uploaded, 'datetime_utc')[0], 'data-utcdate') ?? textOf(info.uploaded));
  const downloads = Number.parseInt(textOf(info.downloads).replace(/[^\d]/g, ''), 10);
  return {
    title,
    link,
    developer: textOf(firstByClass(row, 'byDeveloper')).replace(/^by\s+/i, '') || null,
    icon: absolute(attr(firstByClass(row, 'ellipsisText', 'img'), 'src'), SITE) ?? null,
    version: textOf(info.version) || null,
    uploaded: uploaded || null,
    size: textOf(info['file size']) || null,
    downloads: Number.isFinite(downloads) ? downloads : null,
    // the same facts under the names the genre's clients read (results.data[].name/source/url)
    name: title,
    url: link,
    source: 'APKMirror',
  };
}

export default handler<Params['search/apkmirror']>(async ({ params, call, setup }) => {
  const html = await setup.upstreams.text('apkmirror', {
    path: '/',
    query: { post_type: 'app_release', searchtype: 'apk', s: params.query },
    signal: call.signal,
  });
  return runPoolTask('search/apkmirror#extract', { html, limit: params.limit }, { signal: call.signal, services: setup });
});

/** The page's releases, read in the code pool. */
export const extract = poolTask<{ html: string; limit: number }>()(({ params: { html, ...params } }) => {
  const doc = parseHtml(html, { upstream: 'apkmirror' });
  const rows = byClass(doc, 'appRow');
  const releases = rows.map(release).filter((r) => r !== undefined);
  if (!releases.length) {
    if (!rows.length || /no results found/i.test(textOf(doc))) throw notFound('No APKMirror release matches');
    throw upstreamError('apkmirror', 'the search results carry no readable title or link (the page layout changed)');
  }
  return releases.slice(0, params.limit);
});
