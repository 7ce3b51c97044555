import { notFound } from '../../errors.js';
import { tempMail } from '../../tempmail/mailbox.js';
import type { Params } from '../params.generated.js';
import { handler } from '../types.js';

/** One message of the address, with its text as `body`. */
export default handler<Params['tempgen/tempmail-message']>(async ({ params, call, setup }) => {
  const { store, mailbox } = tempMail(setup.config);
  const message = await store.message(await mailbox(params, call.caller), params.messageid);
  if (!message) throw notFound('No such message in this inbox');
  return { ...message, messageid: message.id, body: message.text };
});
