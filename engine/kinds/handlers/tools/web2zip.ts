import { archiveSite } from '../../../features/webzip/site-archive.js';
import { handler } from '../../../contract/handler.js';
import { FileOutput, hosted } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/web2zip: the page and its assets as a ZIP (engine/features/webzip/). The answer
 * has the fields clients of the genre read, `{siteUrl, copiedFilesAmount, download_url}`,
 * or the ZIP itself with stream=true.
 */
export default handler<Params['tools/web2zip']>(async ({ params, call, setup }) => {
  const site = await archiveSite(setup, call, params.url);
  const answer = { siteUrl: site.siteUrl, copiedFilesAmount: site.files, download_url: hosted.url, size: hosted.size, skipped: site.skipped };
  return new FileOutput(site.zip, 'zip', 'application/zip', { answer });
});
