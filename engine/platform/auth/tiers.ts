import type { Config } from '../config.js';

interface TierLimits {
  rpm: (config: Config) => number;
  daily: (config: Config) => number | undefined;
  /** Unfinished async jobs per key, and the variable that sets it (named in the 429). */
  maxJobs: (config: Config) => number;
  maxJobsVariable: string;
}

/**
 * Every tier a key can carry and where its budgets come from: requests per minute,
 * requests per UTC day (undefined: no daily quota) and unfinished jobs. A new tier is
 * one entry here plus its variables in config.ts.
 */
const TIER_LIMITS = {
  test: {
    rpm: (config: Config) => config.testKeyRpm,
    daily: (config: Config) => config.testKeyDaily,
    maxJobs: (config: Config) => config.testKeyMaxJobs,
    maxJobsVariable: 'TEST_KEY_MAX_JOBS',
  },
  personal: {
    rpm: (config: Config) => config.personalKeyRpm,
    daily: (config: Config) => config.personalKeyDaily,
    maxJobs: (config: Config) => config.personalKeyMaxJobs,
    maxJobsVariable: 'PERSONAL_KEY_MAX_JOBS',
  },
} satisfies Record<string, TierLimits>;

export type Tier = keyof typeof TIER_LIMITS;

export const TIERS = Object.keys(TIER_LIMITS) as Tier[];

/** The tier personal keys get when none is asked for. */
export const DEFAULT_TIER: Tier = 'personal';

export const isTier = (value: unknown): value is Tier => typeof value === 'string' && Object.hasOwn(TIER_LIMITS, value);

export const rpmForTier = (config: Config, tier: Tier): number => TIER_LIMITS[tier].rpm(config);

/** Requests per UTC day for keys of `tier`, or undefined when the tier has no daily quota. */
export const dailyQuotaForTier = (config: Config, tier: Tier): number | undefined => TIER_LIMITS[tier].daily(config);

/** Unfinished async jobs one key of `tier` may have, with the variable that sets the limit. */
export const maxJobsForTier = (config: Config, tier: Tier): { limit: number; variable: string } => ({
  limit: TIER_LIMITS[tier].maxJobs(config),
  variable: TIER_LIMITS[tier].maxJobsVariable,
});
