import type { ErrorObject } from 'ajv';
import ipaddr from 'ipaddr.js';
import { ApiError, invalidParameter } from '../../core/errors.js';
import { CATEGORIES } from '../../core/manifest-types.js';
import { TIERS } from './tiers.js';
import { ajvFor } from '../../core/ajv.js';

/**
 * A key's own rules (issue #20): its per-minute and per-day budgets (overriding its
 * tier's), its expiry, the endpoints it may call and the addresses it may call from,
 * plus a label and an owner's note. The admin API and the keys CLI both hand their
 * input to parseKeyFields, so one schema decides what a key may carry: an unknown
 * field is a 400 naming it, never silently ignored.
 */
export interface KeyRules {
  /** Requests per minute; null: the tier's. */
  rpm: number | null;
  /** Requests per UTC day; null: the tier's (which may be none). */
  daily: number | null;
  /** ISO-8601 instant after which the key is refused (401 key_expired); null: never. */
  expiresAt: string | null;
  /** Categories (`ai`) or endpoint path patterns (`/api/download/*`, `ai/gpt*`); null: every endpoint. */
  allow: readonly string[] | null;
  /** Addresses or CIDR blocks the key may be used from (the client address, TRUST_PROXY); null: anywhere. */
  ips: readonly string[] | null;
}

/** What an admin may set on a key; on update every field is optional, null clears it. */
export interface KeyFields extends Partial<KeyRules> {
  tier?: string;
  label?: string | null;
  note?: string | null;
}

export const MAX_LABEL_LENGTH = 200;
export const MAX_NOTE_LENGTH = 2000;
/** Far more than a host lists by hand; bounds the per-request matching. */
export const MAX_RULE_ENTRIES = 100;
/** Above any budget the limiter is meant for (about 1,000 requests a second per key). */
const MAX_RPM = 60_000;
const MAX_DAILY = 100_000_000;

const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });

/** A path pattern (`/api/download/*`, `ai/*`) or a category name. */
const ALLOW_ENTRY = /^(\/?[A-Za-z0-9_.*-]+(\/[A-Za-z0-9_.*-]*)*)$/;

const FIELDS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    tier: { type: 'string', enum: TIERS },
    label: nullable({ type: 'string', maxLength: MAX_LABEL_LENGTH }),
    note: nullable({ type: 'string', maxLength: MAX_NOTE_LENGTH }),
    rpm: nullable({ type: 'integer', minimum: 0, maximum: MAX_RPM }),
    daily: nullable({ type: 'integer', minimum: 0, maximum: MAX_DAILY }),
    // a day (`2026-12-01`, the end of it is not implied: 00:00 UTC) or a full instant
    expires_at: nullable({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$' }),
    allow: nullable({ type: 'array', maxItems: MAX_RULE_ENTRIES, items: { type: 'string', minLength: 1, maxLength: 200, pattern: ALLOW_ENTRY.source } }),
    ips: nullable({ type: 'array', maxItems: MAX_RULE_ENTRIES, items: { type: 'string', minLength: 1, maxLength: 64 } }),
  },
} as const;

/** The request body's fields, as the admin API documents them (snake_case, like /checkapikey). */
export const KEY_FIELDS_SCHEMA: Record<string, unknown> = FIELDS_SCHEMA;

const validateFields = ajvFor('as-written').compile(FIELDS_SCHEMA);

/** A rotation's body: how long the previous secret keeps working (key-store.ts bounds it). */
const ROTATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { grace_seconds: { type: 'integer', minimum: 0 } },
} as const;
const validateRotation = ajvFor('as-written').compile(ROTATION_SCHEMA);

/** The 400 for ajv's first complaint, naming the field. */
function fieldError(error: ErrorObject, known: readonly string[] = Object.keys(FIELDS_SCHEMA.properties)): ApiError {
  if (error.keyword === 'additionalProperties') {
    const field = (error.params as { additionalProperty: string }).additionalProperty;
    return new ApiError('invalid_parameter', `Unknown field ${field}: this takes ${known.join(', ')}`, {
      details: [{ param: field, problem: 'unknown field' }],
    });
  }
  const param = error.instancePath.split('/')[1] || 'body';
  const problem = error.keyword === 'pattern' && param === 'expires_at' ? 'must be a date (YYYY-MM-DD) or an ISO-8601 time' : (error.message ?? 'is invalid');
  return invalidParameter(param, problem);
}

/** The grace (seconds) a rotation body asks for; 0 unless given. Throws 400 naming the field. */
export function parseRotation(body: unknown): number {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidParameter('body', 'must be a JSON object like {"grace_seconds": 86400}');
  if (!validateRotation(body)) throw fieldError(validateRotation.errors![0]!, Object.keys(ROTATION_SCHEMA.properties));
  return (body as { grace_seconds?: number }).grace_seconds ?? 0;
}

/** Read an IP address or CIDR block; throws 400 naming `ips`. */
function parseRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const value = entry.trim();
  try {
    if (value.includes('/')) return ipaddr.parseCIDR(value);
    // dotted quads and IPv6 only: ipaddr.isValid also takes `10` or `0x7f.1`
    if (!ipaddr.IPv4.isValidFourPartDecimal(value) && !ipaddr.IPv6.isValid(value)) throw new Error('not an address');
    const addr = ipaddr.parse(value);
    return [addr, addr.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw invalidParameter('ips', `"${entry}" is not an IP address or CIDR block (e.g. 203.0.113.7, 10.0.0.0/8, 2001:db8::/32)`);
  }
}

/** An allow entry without a slash is a category, and must be one. */
function checkAllowEntry(entry: string): void {
  if (!entry.includes('/') && !entry.includes('*') && !(CATEGORIES as readonly string[]).includes(entry))
    throw invalidParameter('allow', `"${entry}" is neither a category (${CATEGORIES.join(', ')}) nor an endpoint path pattern such as /api/download/*`);
}

/**
 * Validate an admin's input (the admin API's JSON body, or the CLI's options as the same
 * object): throws 400 invalid_parameter naming the field. Returns the fields in the
 * store's shape, only those given (null where one is cleared).
 */
export function parseKeyFields(body: unknown): KeyFields {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidParameter('body', 'must be a JSON object like {"tier": "personal", "rpm": 600}');
  if (!validateFields(body)) throw fieldError(validateFields.errors![0]!);
  const input = body as Record<string, unknown>;
  const fields: KeyFields = {};
  if ('tier' in input) fields.tier = input.tier as string;
  if ('label' in input) fields.label = (input.label as string | null)?.trim() || null;
  if ('note' in input) fields.note = (input.note as string | null)?.trim() || null;
  if ('rpm' in input) fields.rpm = input.rpm as number | null;
  if ('daily' in input) fields.daily = input.daily as number | null;
  if ('expires_at' in input) {
    const raw = input.expires_at as string | null;
    const time = raw === null ? NaN : Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw);
    if (raw !== null && Number.isNaN(time)) throw invalidParameter('expires_at', 'must be a date (YYYY-MM-DD) or an ISO-8601 time');
    fields.expiresAt = raw === null ? null : new Date(time).toISOString();
  }
  if ('allow' in input) {
    const allow = input.allow as string[] | null;
    allow?.forEach(checkAllowEntry);
    fields.allow = allow && [...new Set(allow)];
  }
  if ('ips' in input) {
    const ips = input.ips as string[] | null;
    // normalised (`10.1.2.3/8` stays as written: parseCIDR keeps the host bits, matching ignores them)
    fields.ips = ips && [...new Set(ips.map((entry) => (parseRange(entry), entry.trim())))];
  }
  return fields;
}

/** The refusals a key's rules make, with their stable codes. */
export const keyExpired = (expiresAt: string) => new ApiError('key_expired', `This API key expired at ${expiresAt}`);
export const endpointNotAllowed = (path: string) => new ApiError('endpoint_not_allowed', `This API key may not call ${path}`);
export const ipNotAllowed = (ip: string) => new ApiError('ip_not_allowed', `This API key may not be used from ${ip}`);

/** What the request path checks, compiled once per key record (the key cache keeps it). */
export interface CompiledRules {
  expiresAtMs?: number;
  /** Whether the key may call an endpoint of this category and path (its canonical path or an alias). */
  allows?(category: string, paths: readonly string[]): boolean;
  /** Whether the key may be used from this client address. */
  allowsIp?(ip: string): boolean;
}

/** `ai/*` and `/api/ai/*` alike: a pattern without the /api prefix gets it. */
function patternRegExp(pattern: string): RegExp {
  let path = pattern.startsWith('/') ? pattern : `/${pattern}`;
  if (!path.startsWith('/api/')) path = `/api${path}`;
  // `*` is any run of characters, slashes included; everything else is literal
  const source = path
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`);
}

export function compileRules(rules: Pick<KeyRules, 'expiresAt' | 'allow' | 'ips'>): CompiledRules {
  const compiled: CompiledRules = {};
  if (rules.expiresAt) compiled.expiresAtMs = Date.parse(rules.expiresAt);
  if (rules.allow) {
    const categories = new Set(rules.allow.filter((entry) => !entry.includes('/') && !entry.includes('*')));
    const patterns = rules.allow.filter((entry) => entry.includes('/') || entry.includes('*')).map(patternRegExp);
    compiled.allows = (category, paths) => categories.has(category) || patterns.some((re) => paths.some((path) => re.test(path)));
  }
  if (rules.ips) {
    const ranges = rules.ips.map(parseRange);
    compiled.allowsIp = (ip) => {
      if (!ipaddr.isValid(ip)) return false;
      let addr = ipaddr.parse(ip);
      // an IPv4 client on a dual-stack socket matches IPv4 blocks
      if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
      return ranges.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
    };
  }
  return compiled;
}
