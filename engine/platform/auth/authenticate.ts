import type { Context } from 'koa';
import type { Config } from '../config.js';
import { ApiError } from '../../core/errors.js';
import { digestEquals, digestOf, sha256Hex } from './constant-time.js';
import { keyFromRequest } from './key-from-request.js';
import type { KeyStore } from './key-store.js';
import { keyExpired, type CompiledRules } from './key-rules.js';
import { dailyQuotaForTier, isTier, rpmForTier, type Tier } from './tiers.js';

/** Who is calling: what rate-limit bucket and budget the request counts against. */
export interface Principal {
  /** Stable id of the key: the row id of a personal key, TEST_KEY_ID for the shared test key. */
  keyId: string;
  tier: Tier;
  /** Requests per minute allowed for this key. */
  rpm: number;
  /** Requests per UTC day allowed for this key (its own, else its tier's daily quota); undefined: no quota. */
  daily?: number;
  /** Whether rpm/daily are the key's own rather than its tier's (said so in the 429). */
  ownLimits?: { rpm: boolean; daily: boolean };
  /** The key's allow-lists (endpoints, addresses), checked by admit(); absent: no restriction. */
  rules?: CompiledRules;
}

export const TEST_KEY_ID = 'test';

export interface AuthDeps {
  store: KeyStore;
  config: Config;
  /** The shared test key's principal: the same for every request, so made once with the engine (authDeps). */
  testPrincipal: Principal;
}

/** What authentication needs, made once where the engine is created (createEngine). */
export const authDeps = (store: KeyStore, config: Config): AuthDeps => ({
  store,
  config,
  testPrincipal: Object.freeze({ keyId: TEST_KEY_ID, tier: 'test', rpm: rpmForTier(config, 'test'), daily: dailyQuotaForTier(config, 'test') }),
});

export const missingApiKey = () =>
  new ApiError('missing_api_key', 'An API key is required: send it in the X-API-Key header, as Authorization: Bearer, or as the apikey parameter');

/** A multipart upload whose first file part came before any key (header, query or an earlier `apikey` field). */
export const missingApiKeyBeforeUpload = () =>
  new ApiError(
    'missing_api_key',
    'An upload needs its API key before the file: send it in the X-API-Key header, as Authorization: Bearer, as the apikey query parameter, or as an apikey form field placed before the file',
  );

export const invalidApiKey = () => new ApiError('invalid_api_key', 'The API key is invalid or has been revoked');

/** The principal for a presented key; throws ApiError 401 missing_api_key / invalid_api_key. */
export async function authenticateKey(presented: string | undefined, { store, config, testPrincipal }: AuthDeps): Promise<Principal> {
  if (presented === undefined) throw missingApiKey();
  // hashed once: compared with the test key's digest, then looked up among personal keys
  const hex = sha256Hex(presented);
  // TEST_API_KEY=off: no key is the test key, so `manifold-test` is looked up (and refused) like any other
  if (config.testApiKey !== undefined && digestEquals(digestOf(hex), config.testApiKey)) return testPrincipal;
  const record = await store.verifyDigest(hex);
  // A tier removed from tiers.ts since the key was made has no budget: refuse the key.
  if (!record || !isTier(record.tier)) throw invalidApiKey();
  const { compiled } = record;
  // 401 like a revoked key (the credential no longer works), with its own code so its holder knows to renew it
  if (compiled.expiresAtMs !== undefined && Date.now() >= compiled.expiresAtMs) throw keyExpired(record.expiresAt!);
  void store.touch(record.id);
  return {
    keyId: record.id,
    tier: record.tier,
    rpm: record.rpm ?? rpmForTier(config, record.tier),
    daily: record.daily ?? dailyQuotaForTier(config, record.tier),
    ownLimits: record.rpm !== null || record.daily !== null ? { rpm: record.rpm !== null, daily: record.daily !== null } : undefined,
    rules: compiled.allows || compiled.allowsIp ? compiled : undefined,
  };
}

/** The principal for a Koa request (see keyFromRequest for where the key may be). */
export function authenticate(ctx: Context, deps: AuthDeps): Promise<Principal> {
  return authenticateKey(keyFromRequest(ctx), deps);
}
