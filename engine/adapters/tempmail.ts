import crypto from 'node:crypto';
import { invalidParameter, missingParameter, notFound } from '../errors.js';
import { tempMailSettings } from '../tempmail/settings.js';
import { TempMailStore } from '../tempmail/store.js';
import { json, type AdapterKind } from './types.js';

/**
 * Temp mail endpoints over the store (SQLite, or PostgreSQL with DATABASE_URL) the SMTP receiver (engine/tempmail/smtp.ts)
 * fills. Actions: generate an address, list its inbox, read, delete a message, delete
 * the address. Addresses live TEMPMAIL_TTL_SECONDS; an expired or unknown address is 404.
 * An address is named by `email`, or the first generation's way (1secmail's): `username`
 * plus `domain` (which defaults to MAIL_DOMAIN).
 */
interface TempMailConfig {
  action: 'generate' | 'inbox' | 'message' | 'delete-message' | 'delete-address';
}

const EXPIRED = 'No such address, or it expired; generate a new one';

export const tempmail: AdapterKind<TempMailConfig> = {
  kind: 'tempmail',
  cost: 'io',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['action'],
    properties: { action: { enum: ['generate', 'inbox', 'message', 'delete-message', 'delete-address'] } },
  },
  unavailable(_config, setup) {
    return tempMailSettings(setup.config).domain ? undefined : 'MAIL_DOMAIN is not set';
  },
  create(config, setup) {
    const settings = tempMailSettings(setup.config);
    const store = new TempMailStore(setup.config);
    const mailbox = async (params: Record<string, any>) => {
      const split = params.email === undefined && params.username !== undefined;
      if (params.email === undefined && !split) throw missingParameter('email');
      const address = (split ? `${params.username}@${params.domain ?? settings.domain}` : String(params.email)).trim().toLowerCase();
      if (!address.endsWith(`@${settings.domain}`)) throw invalidParameter(split ? 'domain' : 'email', `must be ${split ? '' : 'an address on '}${settings.domain}`);
      if (!(await store.exists(address))) throw notFound(EXPIRED);
      return address;
    };

    return async ({ params }) => {
      switch (config.action) {
        case 'generate': {
          const local = params.name ? String(params.name).toLowerCase() : crypto.randomBytes(6).toString('hex');
          const created = await store.createAddress(`${local}@${settings.domain}`, settings.ttlSeconds);
          if (!created) throw invalidParameter('name', 'is already in use');
          // `message` is what clients of the genre show their user after generating
          const message = `Your temporary address is ${created.address}; it receives mail until ${created.expiresAt}`;
          return json({ email: created.address, username: local, domain: settings.domain, message, expiresAt: created.expiresAt, ttlSeconds: settings.ttlSeconds });
        }
        case 'inbox':
          return json((await store.inbox(await mailbox(params))).map((m) => ({ ...m, messageid: m.id })));
        case 'message': {
          const message = await store.message(await mailbox(params), params.messageid);
          if (!message) throw notFound('No such message in this inbox');
          return json({ ...message, messageid: message.id, body: message.text });
        }
        case 'delete-message':
          if (!(await store.deleteMessage(await mailbox(params), params.messageid))) throw notFound('No such message in this inbox');
          return json({ deleted: true, messageid: params.messageid });
        case 'delete-address': {
          const address = await mailbox(params);
          await store.deleteAddress(address);
          return json({ deleted: true, email: address });
        }
      }
    };
  },
};
