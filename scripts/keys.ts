/**
 * Operator CLI for personal API keys, on the server's database (DATABASE_URL, else SQLite in DATA_DIR;
 * read from the environment or the .env file `npm start` reads):
 *
 *   npm run keys -- create [--tier personal] [--label "my bot"] [rules]   prints the new key once
 *   npm run keys -- update <id> [--label …] [rules]                      changes only what is given
 *   npm run keys -- list                                                  id, tier, rules, dates (no hashes)
 *   npm run keys -- rotate <id> [--grace SECONDS]                         a new secret, printed once
 *   npm run keys -- revoke <id>                                           effective on the next request
 *
 * Rules: --rpm N, --daily N, --expires 2026-12-01, --allow 'ai/*' (repeatable or comma-separated),
 * --ips 10.0.0.0/8 (likewise), --note text; on update `none` clears a rule. They are checked by the
 * admin API's own validation (engine/platform/auth/key-rules.ts), so both refuse the same input.
 *
 * Exit codes: 0 ok, 1 unknown key id, 2 usage error.
 */
import { parseArgs } from 'node:util';
import { KeyStore, type KeyRecord } from '../engine/platform/auth/key-store.js';
import { parseKeyFields, parseRotation } from '../engine/platform/auth/key-rules.js';
import { createRevocations } from '../engine/platform/auth/revocations.js';
import { silentLogger } from '../engine/platform/log.js';
import { TIERS } from '../engine/platform/auth/tiers.js';
import { loadConfig } from '../engine/platform/config.js';
import { rootCause } from '../engine/platform/db/unavailable.js';
import { ApiError } from '../engine/core/errors.js';
import { databaseTarget, openDatabase, type Database } from '../engine/platform/db/database.js';
import { loadEnvFile } from './env-file.mjs';

const RULES = '[--rpm N] [--daily N] [--expires DATE] [--allow PATTERN]… [--ips CIDR]… [--note TEXT]';
const COMMANDS: [string, string][] = [
  [`create [--tier ${TIERS.join('|')}] [--label <text>] ${RULES}`, 'create a key and print it (shown only once)'],
  [`update <id> [--tier …] [--label …] ${RULES}`, "change a key's rules (`none` clears one)"],
  ['list', 'list keys (never the keys themselves)'],
  ['rotate <id> [--grace SECONDS]', 'a new secret for the same key (printed once); the old one works SECONDS more (default 0)'],
  ['revoke <id>', 'revoke a key at once'],
];
const USAGE = ['usage: npm run keys -- <command>', ...COMMANDS.map(([what, why]) => `  ${what}\n      ${why}`)].join('\n');

class UsageError extends Error {}

/** A key's own rules in a line: `rpm=5000 expires=2026-12-01T00:00:00.000Z allow=ai/*`. */
function rulesOf(r: KeyRecord): string {
  const parts = [
    r.rpm !== null && `rpm=${r.rpm}`,
    r.daily !== null && `daily=${r.daily}`,
    r.expiresAt && `expires=${r.expiresAt}`,
    r.allow && `allow=${r.allow.join(',')}`,
    r.ips && `ips=${r.ips.join(',')}`,
  ];
  return parts.filter(Boolean).join(' ');
}

function table(records: KeyRecord[]): string {
  const rows = [
    ['ID', 'TIER', 'STATUS', 'CREATED', 'LABEL', 'LAST USED', 'RULES'],
    ...records.map((r) => [r.id, r.tier, r.revokedAt ? `revoked ${r.revokedAt}` : 'active', r.createdAt, r.label ?? '', r.lastUsedAt ?? '-', rulesOf(r)]),
  ];
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)));
  return rows
    .map((row) =>
      row
        .map((cell, col) => cell.padEnd(widths[col]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const OPTIONS = {
  tier: { type: 'string' },
  label: { type: 'string' },
  note: { type: 'string' },
  rpm: { type: 'string' },
  daily: { type: 'string' },
  expires: { type: 'string' },
  allow: { type: 'string', multiple: true },
  ips: { type: 'string', multiple: true },
  grace: { type: 'string' },
} as const;

type Options = { [name in keyof typeof OPTIONS]?: (typeof OPTIONS)[name] extends { multiple: true } ? string[] : string };

/** The options as the admin API's JSON body (`none` clears a rule; numbers as numbers), for the same validation. */
function bodyOf(values: Options): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const cleared = (value: string | string[]) => (Array.isArray(value) ? value.length === 1 && value[0] === 'none' : value === 'none');
  const number = (value: string) => (/^\d+$/.test(value) ? Number(value) : value);
  const list = (value: string[]) => value.flatMap((v) => v.split(',')).map((v) => v.trim());
  if (values.grace !== undefined) throw new UsageError('--grace goes with rotate only');
  if (values.tier !== undefined) body.tier = values.tier;
  if (values.label !== undefined) body.label = values.label;
  if (values.note !== undefined) body.note = values.note;
  if (values.rpm !== undefined) body.rpm = cleared(values.rpm) ? null : number(values.rpm);
  if (values.daily !== undefined) body.daily = cleared(values.daily) ? null : number(values.daily);
  if (values.expires !== undefined) body.expires_at = cleared(values.expires) ? null : values.expires;
  if (values.allow !== undefined) body.allow = cleared(values.allow) ? null : list(values.allow);
  if (values.ips !== undefined) body.ips = cleared(values.ips) ? null : list(values.ips);
  return body;
}

async function run(argv: string[], store: KeyStore): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const [command, ...rest] = positionals;
  const given = Object.keys(values).length > 0;
  switch (command) {
    case 'create': {
      if (rest.length > 0) throw new UsageError(`create takes no arguments, got: ${rest.join(' ')}`);
      const created = await store.create(parseKeyFields(bodyOf(values)));
      console.log(`Created ${created.tier} key ${created.id}${created.label ? ` (${created.label})` : ''}.`);
      if (rulesOf(created)) console.log(`rules: ${rulesOf(created)}`);
      console.log(`key: ${created.key}`);
      console.log('Store it now: only its hash is kept, it cannot be shown again.');
      return 0;
    }
    case 'update': {
      if (rest.length !== 1) throw new UsageError('update takes exactly one key id');
      if (!given) throw new UsageError('update needs at least one option to change');
      const updated = await store.update(rest[0]!, parseKeyFields(bodyOf(values)));
      if (!updated) {
        console.error(`No key with id ${rest[0]} (see: npm run keys -- list)`);
        return 1;
      }
      console.log(`Updated key ${updated.id}${updated.label ? ` (${updated.label})` : ''}: ${rulesOf(updated) || 'no rules of its own'}.`);
      return 0;
    }
    case 'rotate': {
      const { grace, ...others } = values;
      if (rest.length !== 1 || Object.keys(others).length > 0) throw new UsageError('rotate takes one key id and --grace');
      const rotated = await store.rotate(rest[0]!, parseRotation(grace === undefined ? {} : { grace_seconds: /^\d+$/.test(grace) ? Number(grace) : grace }));
      if (!rotated) {
        console.error(`No live key with id ${rest[0]} (see: npm run keys -- list)`);
        return 1;
      }
      console.log(
        `Rotated key ${rotated.id}; the previous secret ${rotated.previousValidUntil ? `works until ${rotated.previousValidUntil}` : 'is refused from now on'}.`,
      );
      console.log(`key: ${rotated.key}`);
      console.log('Store it now: only its hash is kept, it cannot be shown again.');
      return 0;
    }
    case 'list': {
      if (rest.length > 0 || given) throw new UsageError('list takes no arguments');
      const records = await store.list();
      console.log(records.length > 0 ? table(records) : 'No keys yet. Create one with: npm run keys -- create');
      return 0;
    }
    case 'revoke': {
      if (rest.length !== 1 || given) throw new UsageError('revoke takes exactly one key id');
      const revoked = await store.revoke(rest[0]);
      if (!revoked) {
        console.error(`No key with id ${rest[0]} (see: npm run keys -- list)`);
        return 1;
      }
      console.log(`Revoked key ${revoked.id} at ${revoked.revokedAt}.`);
      return 0;
    }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'missing command');
  }
}

async function main(): Promise<number> {
  // the settings `npm start` reads (.env or ENV_FILE), so the keys go to the server's own database
  try {
    loadEnvFile();
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const config = loadConfig();
  // with REDIS_URL, a revocation also reaches instances that cannot read the database right now
  const revocations = createRevocations(config, silentLogger);
  // the CLI's own connection, as a second process has: the server's engine holds another
  let db: Database | undefined;
  try {
    db = openDatabase(databaseTarget(config));
    return await run(process.argv.slice(2), new KeyStore(db, { revocations }));
  } catch (error) {
    // parseArgs rejects unknown options with ERR_PARSE_ARGS_* codes; bad tier/label come as ApiError 400.
    const parseError = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (error instanceof ApiError && error.code === 'database_unavailable') {
      // the HTTP answer hides the cause; the operator at the terminal needs it
      console.error(`${error.message}: ${rootCause(error)}`);
      return 1;
    }
    if (error instanceof UsageError || error instanceof ApiError || parseError) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  } finally {
    await revocations?.close();
    await db?.close();
  }
}

process.exitCode = await main();
