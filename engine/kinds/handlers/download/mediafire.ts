import { compilePageLink, type PageLinkConfig } from '../../../features/media/page-link.js';
import { mimeTypeOf } from '../../../features/media/file-types.js';
import { urlMatcher } from '../../../features/media/url-match.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/download/mediafire: a MediaFire file page read for its direct link and details
 * (engine/features/media/page-link.ts; the manifest's `options` hold the URL patterns and the
 * expressions). Only the path of the user's URL is used, on the mediafire upstream, once
 * it matched MediaFire's URL forms. The result carries each value under every name the
 * genre's clients read: `size`/`fileSize`, `filetype`/`fileType`, `uploaded`/`uploadedOn`,
 * `dl_link`/`download_url`/`downloadUrl`/`downloadLink`; `mimeType` is the type of the file's extension.
 */
interface Options {
  site: string;
  urls: string[];
  page: PageLinkConfig;
}

let compiled: { key: string; page: ReturnType<typeof compilePageLink>; matcher: ReturnType<typeof urlMatcher> } | undefined;

function prepare(options: Options) {
  const key = JSON.stringify(options);
  if (compiled?.key !== key) compiled = { key, page: compilePageLink(options.page), matcher: urlMatcher(options.urls, options.site) };
  return compiled;
}

export default handler<Params['download/mediafire']>(async ({ params, options, call, setup }) => {
  const { page, matcher } = prepare(options as Options);
  matcher.check(params.url);
  const {
    link,
    fileName = null,
    size = null,
    filetype = null,
    uploaded = null,
    uploadedFrom = null,
  } = page.read(await page.fetchPage(setup, params.url, call.signal));
  return {
    fileName,
    size,
    fileSize: size,
    filetype,
    fileType: filetype,
    mimeType: mimeTypeOf(fileName),
    uploaded,
    uploadedOn: uploaded,
    uploadedFrom,
    dl_link: link,
    download_url: link,
    downloadUrl: link,
    downloadLink: link,
    source_url: params.url,
  };
});
