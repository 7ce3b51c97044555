import { tempMail } from '../../../features/tempmail/mailbox.js';
import type { Params } from '../params.generated.js';
import { handler } from '../../../contract/handler.js';

/** Delete the address and its messages (its owner only: tempmail/mailbox.ts). */
export default handler<Params['tempgen/tempmail-delete']>(async ({ params, call, setup }) => {
  const { store, mailbox } = tempMail(setup.config, setup.database);
  const address = await mailbox(params, call.caller);
  await store.deleteAddress(address);
  return { deleted: true, email: address };
});
