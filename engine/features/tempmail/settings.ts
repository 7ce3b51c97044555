import type { Config } from '../../platform/config.js';
import { nonNegativeInt } from '../../platform/settings/int.js';

/** Temp mail settings from the environment (see docs/operating/configuration.md). */
export interface TempMailSettings {
  /** Domain of generated addresses; unset = temp mail unavailable. */
  domain?: string;
  /** SMTP listener; unset = no receiver in this process. */
  smtpPort?: number;
  smtpHost: string;
  /** How long an address (and its messages) lives. */
  ttlSeconds: number;
  /** Messages kept per inbox; the oldest are dropped beyond it. */
  maxMessages: number;
  /** Largest accepted message (SMTP SIZE), bytes. */
  maxMessageBytes: number;
}

export function tempMailSettings(config: Config): TempMailSettings {
  const env = config.env;
  return {
    domain: env.MAIL_DOMAIN?.toLowerCase(),
    smtpPort: env.SMTP_PORT === undefined ? undefined : nonNegativeInt(env, 'SMTP_PORT', 2525),
    smtpHost: env.SMTP_HOST ?? '0.0.0.0',
    ttlSeconds: nonNegativeInt(env, 'TEMPMAIL_TTL_SECONDS', 3600),
    maxMessages: nonNegativeInt(env, 'TEMPMAIL_MAX_MESSAGES', 50),
    maxMessageBytes: nonNegativeInt(env, 'TEMPMAIL_MAX_MESSAGE_BYTES', 10 * 1024 * 1024),
  };
}
