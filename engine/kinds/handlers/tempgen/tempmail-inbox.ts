import { tempMail } from '../../../features/tempmail/mailbox.js';
import type { Params } from '../params.generated.js';
import { handler } from '../../../contract/handler.js';

/**
 * The address's messages, newest first, each with its plain text: `messageid` and `body` (the
 * text again) are the names clients of the genre read (the genre's atassa bots read
 * `result[].body|text|content…` from the inbox itself).
 */
export default handler<Params['tempgen/tempmail-inbox']>(async ({ params, call, setup }) => {
  const { store, mailbox } = tempMail(setup.config, setup.database);
  return (await store.inbox(await mailbox(params, call.caller))).map((m) => ({ ...m, messageid: m.id, body: m.text }));
});
