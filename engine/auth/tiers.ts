import type { Config } from '../config.js';

/**
 * Every tier a key can carry and where its budgets come from: requests per minute,
 * and requests per UTC day (undefined: no daily quota). A new tier is one line here
 * plus its variables in config.ts.
 */
const TIER_LIMITS = {
  test: { rpm: (config: Config) => config.testKeyRpm, daily: (config: Config) => config.testKeyDaily },
  personal: { rpm: (config: Config) => config.personalKeyRpm, daily: (config: Config) => config.personalKeyDaily },
} satisfies Record<string, { rpm: (config: Config) => number; daily: (config: Config) => number | undefined }>;

export type Tier = keyof typeof TIER_LIMITS;

export const TIERS = Object.keys(TIER_LIMITS) as Tier[];

/** The tier personal keys get when none is asked for. */
export const DEFAULT_TIER: Tier = 'personal';

export const isTier = (value: unknown): value is Tier => typeof value === 'string' && Object.hasOwn(TIER_LIMITS, value);

export const rpmForTier = (config: Config, tier: Tier): number => TIER_LIMITS[tier].rpm(config);

/** Requests per UTC day for keys of `tier`, or undefined when the tier has no daily quota. */
export const dailyQuotaForTier = (config: Config, tier: Tier): number | undefined => TIER_LIMITS[tier].daily(config);
