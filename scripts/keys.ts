/**
 * Operator CLI for personal API keys, on the server's database (DATABASE_URL, else SQLite in DATA_DIR;
 * read from the environment or the .env file `npm start` reads):
 *
 *   npm run keys -- create [--tier personal] [--label "my bot"]   prints the new key once
 *   npm run keys -- list                                          id, tier, label, dates (no hashes)
 *   npm run keys -- revoke <id>                                   effective on the next request
 *
 * Exit codes: 0 ok, 1 unknown key id, 2 usage error.
 */
import { parseArgs } from 'node:util';
import { KeyStore, type KeyRecord } from '../engine/auth/key-store.js';
import { createRevocations } from '../engine/auth/revocations.js';
import { silentLogger } from '../engine/log.js';
import { TIERS } from '../engine/auth/tiers.js';
import { loadConfig } from '../engine/config.js';
import { rootCause } from '../engine/db/unavailable.js';
import { ApiError } from '../engine/errors.js';
import { closeDatabase, database } from '../engine/db/database.js';
import { loadEnvFile } from './env-file.mjs';

const COMMANDS: [string, string][] = [
  [`create [--tier ${TIERS.join('|')}] [--label <text>]`, 'create a key and print it (shown only once)'],
  ['list', 'list keys (never the keys themselves)'],
  ['revoke <id>', 'revoke a key at once'],
];
const USAGE = ['usage: npm run keys -- <command>', ...COMMANDS.map(([what, why]) => `  ${what.padEnd(50)}${why}`)].join('\n');

class UsageError extends Error {}

function table(records: KeyRecord[]): string {
  const rows = [
    ['ID', 'TIER', 'STATUS', 'CREATED', 'LABEL'],
    ...records.map((r) => [r.id, r.tier, r.revokedAt ? `revoked ${r.revokedAt}` : 'active', r.createdAt, r.label ?? '']),
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

async function run(argv: string[], store: KeyStore): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { tier: { type: 'string' }, label: { type: 'string' } },
  });
  const [command, ...rest] = positionals;
  switch (command) {
    case 'create': {
      if (rest.length > 0) throw new UsageError(`create takes no arguments, got: ${rest.join(' ')}`);
      const created = await store.create({ tier: values.tier, label: values.label });
      console.log(`Created ${created.tier} key ${created.id}${created.label ? ` (${created.label})` : ''}.`);
      console.log(`key: ${created.key}`);
      console.log('Store it now: only its hash is kept, it cannot be shown again.');
      return 0;
    }
    case 'list': {
      if (rest.length > 0 || values.tier !== undefined || values.label !== undefined) throw new UsageError('list takes no arguments');
      const records = await store.list();
      console.log(records.length > 0 ? table(records) : 'No keys yet. Create one with: npm run keys -- create');
      return 0;
    }
    case 'revoke': {
      if (rest.length !== 1 || values.tier !== undefined || values.label !== undefined) throw new UsageError('revoke takes exactly one key id');
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
  try {
    return await run(process.argv.slice(2), new KeyStore(database(config), { revocations }));
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
    await closeDatabase(config);
  }
}

process.exitCode = await main();
