import { notFound } from '../../../core/errors.js';
import { tempMail } from '../../../features/tempmail/mailbox.js';
import type { Params } from '../params.generated.js';
import { handler } from '../../../contract/handler.js';

/** One message of the address, with its text as `body`. */
export default handler<Params['tempgen/tempmail-message']>(async ({ params, call, setup }) => {
  const { store, mailbox } = tempMail(setup.config, setup.database);
  const message = await store.message(await mailbox(params, call.caller), params.messageid);
  if (!message) throw notFound('No such message in this inbox');
  return { ...message, messageid: message.id, body: message.text };
});
