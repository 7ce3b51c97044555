import crypto from 'node:crypto';
import type { Caller } from '../../contract/call.js';
import { TEST_KEY_ID } from '../../platform/auth/authenticate.js';
import { sha256Hex } from '../../platform/auth/constant-time.js';
import type { Config } from '../../platform/config.js';
import type { DatabaseSource } from '../../platform/db/database.js';
import { invalidParameter, missingParameter, notFound } from '../../core/errors.js';
import { tempMailSettings } from './settings.js';
import { TempMailStore, type AddressOwner } from './store.js';

/**
 * What the temp mail endpoints share: the store (in the engine's database) and settings,
 * the owner a new address gets, and the check that an address is one of ours, alive and
 * the caller's. Addresses live TEMPMAIL_TTL_SECONDS. An address is named by `email`, or
 * the first generation's way (1secmail's): `username` plus `domain` (which defaults to
 * MAIL_DOMAIN).
 *
 * Whose an address is: the key that made it, by its id. Every user of the shared test key
 * holds the same key, and an address is no secret (it is given to whoever is to send
 * mail), so on the test key the `token` handed out with the address is needed as well,
 * as the genre's temp-mail services (mail.tm, Guerrilla Mail) hand out theirs. Another
 * key, or the test key without the token, gets the 404 of an unknown address: nothing
 * tells them the address exists.
 */
const NOT_YOURS = 'No such address for this key, or it expired; generate a new one (on the shared test key, send the token handed out with the address)';

export function tempMail(config: Config, database: DatabaseSource) {
  const settings = tempMailSettings(config);
  const store = new TempMailStore(database);
  const mailbox = async (params: { email?: string; username?: string; domain?: string; token?: string }, caller: Caller) => {
    const split = params.email === undefined && params.username !== undefined;
    if (params.email === undefined && !split) throw missingParameter('email');
    const address = (split ? `${params.username}@${params.domain ?? settings.domain}` : String(params.email)).trim().toLowerCase();
    if (!address.endsWith(`@${settings.domain}`))
      throw invalidParameter(split ? 'domain' : 'email', `must be ${split ? '' : 'an address on '}${settings.domain}`);
    const owner = await store.owner(address);
    if (!owner || !owns(owner, caller, params.token)) throw notFound(NOT_YOURS);
    return address;
  };
  return { settings, store, mailbox };
}

/** A new address's owner: the caller's key, and a token (returned once, kept as its hash). */
export function newOwner(caller: Caller): { owner: AddressOwner; token: string } {
  const token = crypto.randomBytes(24).toString('base64url');
  return { owner: { keyId: caller.keyId, tokenHash: sha256Hex(token) }, token };
}

function owns(owner: Partial<AddressOwner>, caller: Caller, token: string | undefined): boolean {
  if (owner.keyId === undefined || owner.keyId !== caller.keyId) return false;
  if (caller.keyId !== TEST_KEY_ID) return true;
  if (token === undefined || owner.tokenHash === undefined) return false;
  return crypto.timingSafeEqual(Buffer.from(sha256Hex(token), 'hex'), Buffer.from(owner.tokenHash, 'hex'));
}
