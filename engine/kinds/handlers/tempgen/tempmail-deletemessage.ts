import { notFound } from '../../../core/errors.js';
import { tempMail } from '../../../features/tempmail/mailbox.js';
import type { Params } from '../params.generated.js';
import { handler } from '../../../contract/handler.js';

/** Delete one message of the address. */
export default handler<Params['tempgen/tempmail-deletemessage']>(async ({ params, call, setup }) => {
  const { store, mailbox } = tempMail(setup.config, setup.database);
  if (!(await store.deleteMessage(await mailbox(params, call.caller), params.messageid))) throw notFound('No such message in this inbox');
  return { deleted: true, messageid: params.messageid };
});
