import { tempMail } from '../../tempmail/mailbox.js';
import type { Params } from '../params.generated.js';
import { handler } from '../types.js';

/** Delete the address and its messages. */
export default handler<Params['tempgen/tempmail-delete']>(async ({ params, setup }) => {
  const { store, mailbox } = tempMail(setup.config);
  const address = await mailbox(params);
  await store.deleteAddress(address);
  return { deleted: true, email: address };
});
