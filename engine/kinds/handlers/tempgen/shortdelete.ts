import { notFound } from '../../../core/errors.js';
import { ShortLinkStore } from '../../../features/shortener/store.js';
import type { Params } from '../params.generated.js';
import { handler } from '../../../contract/handler.js';

/** /api/tools/shortdelete: delete a short link, if the calling key made it (another key's is as absent as an unknown code). */
export default handler<Params['tempgen/shortdelete']>(async ({ params, call, setup }) => {
  if (!(await new ShortLinkStore(setup.database).delete(params.code, call.caller.keyId))) throw notFound('No such short link of this key');
  return { deleted: true, code: params.code };
});
