import { notFound } from '../../../core/errors.js';
import { ShortLinkStore } from '../../../features/shortener/store.js';
import type { Params } from '../params.generated.js';
import { handler, Reply } from '../../../contract/handler.js';

/** /s/:code: 302 to the target, counting the click. */
export default handler<Params['tempgen/shortlink-redirect']>(async ({ params, setup }) => {
  const target = await new ShortLinkStore(setup.database).click(params.code);
  if (!target) throw notFound('No such short link');
  return new Reply({ type: 'redirect', location: target, status: 302 });
});
