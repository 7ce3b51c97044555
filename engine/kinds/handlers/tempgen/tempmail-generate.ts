import crypto from 'node:crypto';
import { invalidParameter } from '../../../core/errors.js';
import { newOwner, tempMail } from '../../../features/tempmail/mailbox.js';
import type { Params } from '../params.generated.js';
import { handler } from '../../../contract/handler.js';

/**
 * A new address on MAIL_DOMAIN (a random local part unless `name` is given), the caller's,
 * with the token that proves it on the shared test key (tempmail/mailbox.ts).
 */
export default handler<Params['tempgen/tempmail-generate']>(async ({ params, call, setup }) => {
  const { settings, store } = tempMail(setup.config, setup.database);
  const local = params.name ? String(params.name).toLowerCase() : crypto.randomBytes(6).toString('hex');
  const { owner, token } = newOwner(call.caller);
  const created = await store.createAddress(`${local}@${settings.domain}`, settings.ttlSeconds, owner);
  if (!created) throw invalidParameter('name', 'is already in use');
  // `message` is what clients of the genre show their user after generating
  const message = `Your temporary address is ${created.address}; it receives mail until ${created.expiresAt}`;
  return { email: created.address, username: local, domain: settings.domain, message, token, expiresAt: created.expiresAt, ttlSeconds: settings.ttlSeconds };
});
