import crypto from 'node:crypto';
import { invalidParameter, notFound } from '../errors.js';
import { tempMailSettings } from '../tempmail/settings.js';
import { TempMailStore } from '../tempmail/store.js';
import { json, type AdapterKind } from './types.js';

/**
 * Temp mail endpoints over the store (SQLite, or PostgreSQL with DATABASE_URL) the SMTP receiver (engine/tempmail/smtp.ts)
 * fills. Actions: generate an address, list its inbox, read, delete a message, delete
 * the address. Addresses live TEMPMAIL_TTL_SECONDS; an expired or unknown address is 404.
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
    const mailbox = async (email: unknown) => {
      const address = String(email).trim().toLowerCase();
      if (!address.endsWith(`@${settings.domain}`)) throw invalidParameter('email', `must be an address on ${settings.domain}`);
      if (!(await store.exists(address))) throw notFound(EXPIRED);
      return address;
    };

    return async ({ params }) => {
      switch (config.action) {
        case 'generate': {
          const local = params.name ? String(params.name).toLowerCase() : crypto.randomBytes(6).toString('hex');
          const created = await store.createAddress(`${local}@${settings.domain}`, settings.ttlSeconds);
          if (!created) throw invalidParameter('name', 'is already in use');
          return json({ email: created.address, expiresAt: created.expiresAt, ttlSeconds: settings.ttlSeconds });
        }
        case 'inbox':
          return json((await store.inbox(await mailbox(params.email))).map((m) => ({ ...m, messageid: m.id })));
        case 'message': {
          const message = await store.message(await mailbox(params.email), params.messageid);
          if (!message) throw notFound('No such message in this inbox');
          return json({ ...message, messageid: message.id, body: message.text });
        }
        case 'delete-message':
          if (!(await store.deleteMessage(await mailbox(params.email), params.messageid))) throw notFound('No such message in this inbox');
          return json({ deleted: true, messageid: params.messageid });
        case 'delete-address':
          await store.deleteAddress(await mailbox(params.email));
          return json({ deleted: true, email: String(params.email).toLowerCase() });
      }
    };
  },
};
