import { tempMail } from '../../tempmail/mailbox.js';
import type { Params } from '../params.generated.js';
import { handler } from '../types.js';

/** The address's messages, newest first (`messageid` is the name clients of the genre read). */
export default handler<Params['tempgen/tempmail-inbox']>(async ({ params, setup }) => {
  const { store, mailbox } = tempMail(setup.config);
  return (await store.inbox(await mailbox(params))).map((m) => ({ ...m, messageid: m.id }));
});
