import type { Config } from '../config.js';
import { invalidParameter, missingParameter, notFound } from '../errors.js';
import { tempMailSettings } from './settings.js';
import { TempMailStore } from './store.js';

/**
 * What the temp mail endpoints share: the store and settings for the engine's config,
 * and the check that an address is one of ours and still alive (an expired or unknown
 * address is 404). Addresses live TEMPMAIL_TTL_SECONDS. An address is named by `email`,
 * or the first generation's way (1secmail's): `username` plus `domain` (which defaults
 * to MAIL_DOMAIN).
 */
export function tempMail(config: Config) {
  const settings = tempMailSettings(config);
  const store = new TempMailStore(config);
  const mailbox = async (params: { email?: string; username?: string; domain?: string }) => {
    const split = params.email === undefined && params.username !== undefined;
    if (params.email === undefined && !split) throw missingParameter('email');
    const address = (split ? `${params.username}@${params.domain ?? settings.domain}` : String(params.email)).trim().toLowerCase();
    if (!address.endsWith(`@${settings.domain}`))
      throw invalidParameter(split ? 'domain' : 'email', `must be ${split ? '' : 'an address on '}${settings.domain}`);
    if (!(await store.exists(address))) throw notFound('No such address, or it expired; generate a new one');
    return address;
  };
  return { settings, store, mailbox };
}
