import type { Config } from '../config.js';
import { nonNegativeInt } from '../settings/int.js';

/**
 * KEY_CACHE_TTL_S: how long after this instance last read the database a key it had
 * verified is still accepted while the database cannot be reached (key-store.ts); 0
 * answers every personal key 503 database_unavailable during an outage.
 */
export const KEY_CACHE_TTL_S = 60;

export const keyCacheTtlMs = (env: Config['env']): number => nonNegativeInt(env, 'KEY_CACHE_TTL_S', KEY_CACHE_TTL_S) * 1000;
