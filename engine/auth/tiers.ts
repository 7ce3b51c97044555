import type { Config } from '../config.js';

/**
 * Every tier a key can carry and where its requests-per-minute budget comes from.
 * A new tier is one line here plus its variable in config.ts.
 */
const TIER_RPM = {
  test: (config: Config) => config.testKeyRpm,
  personal: (config: Config) => config.personalKeyRpm,
} satisfies Record<string, (config: Config) => number>;

export type Tier = keyof typeof TIER_RPM;

export const TIERS = Object.keys(TIER_RPM) as Tier[];

/** The tier personal keys get when none is asked for. */
export const DEFAULT_TIER: Tier = 'personal';

export const isTier = (value: unknown): value is Tier => typeof value === 'string' && Object.hasOwn(TIER_RPM, value);

export const rpmForTier = (config: Config, tier: Tier): number => TIER_RPM[tier](config);
