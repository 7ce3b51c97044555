/**
 * The client corpus (test/parity/corpus/repos/*.yaml, format in corpus/README.md): every call
 * site public bot code makes to the genre's hosts, with what it reads. Loaded and checked
 * here; test/parity/corpus.test.ts calls each against Manifold.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import type { JsonType } from './fields.js';

export const CORPUS_DIR = new URL('./corpus/repos/', import.meta.url).pathname;
export const REFERENCE_FILE = new URL('./corpus/reference.yaml', import.meta.url).pathname;

/** The hosts whose clients the corpus records. */
export const HOSTS = [
  'api.giftedtech.web.id',
  'apis.giftedtech.web.id',
  'api.giftedtech.co.ke',
  'api.gifted.co.ke',
  'api.giftedtech.my.id',
  'api.princetechn.com',
];

export type How = 'strict' | 'destructure' | 'guess' | 'bytes';

export interface Read {
  field?: string;
  how: How;
  type?: JsonType;
  /** Read only to tell a failure (`if (!data.success) reply(data.message)`, `result.message === 'Not Found'`): a success answer need not have it. */
  when?: 'failure';
}

export interface CallSite {
  file: string;
  line?: number;
  host: string;
  path: string;
  method?: 'GET' | 'POST';
  params?: Record<string, unknown> | null;
  reads?: Read[] | null;
}

export interface RepoFile {
  repo: string;
  commit: string;
  genre?: boolean;
  fork_of?: string;
  calls?: CallSite[];
}

/** A call site with where it came from. */
export interface Site extends CallSite {
  repo: string;
  genre: boolean;
  reads: Read[];
  params: Record<string, unknown>;
  /** The parameters the client sends are known (repositories); the reference's are not, so examples are called as written. */
  paramsKnown: boolean;
  /** `repo file:line`, for messages. */
  source: string;
  /** Reference rows: reads not answered yet, with the reason. */
  gaps?: Record<string, string>;
  /** Where the call goes on this server ahead of its path: '' (the plain base URL) or `/as/<host>`. */
  base?: string;
}

const read = {
  type: 'object',
  additionalProperties: false,
  required: ['how'],
  properties: {
    field: { type: 'string', minLength: 1 },
    how: { enum: ['strict', 'destructure', 'guess', 'bytes'] },
    type: { enum: ['string', 'number', 'boolean', 'array', 'object'] },
    when: { const: 'failure' },
  },
  if: { properties: { how: { const: 'bytes' } } },
  then: { not: { required: ['field'] } },
  else: { required: ['field'] },
};

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['repo', 'commit'],
  properties: {
    repo: { type: 'string', pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$' },
    commit: { type: 'string', pattern: '^[0-9a-f]{40}$' },
    genre: { type: 'boolean' },
    fork_of: { type: 'string', pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$' },
    calls: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['file', 'host', 'path'],
        properties: {
          file: { type: 'string', minLength: 1 },
          line: { type: 'integer', minimum: 1 },
          host: { enum: HOSTS },
          path: { type: 'string', pattern: '^/[^?#\\s]*$' },
          method: { enum: ['GET', 'POST'] },
          params: { type: ['object', 'null'] },
          reads: { type: ['array', 'null'], items: read },
        },
      },
    },
  },
  // a fork is counted as the repository it copies: its calls are that one's
  if: { required: ['fork_of'] },
  then: { not: { required: ['calls'] } },
  else: { required: ['calls'], properties: { calls: { type: 'array', minItems: 1 } } },
};

const REFERENCE_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['path'],
    properties: {
      path: { type: 'string', pattern: '^/[^?#\\s]*$' },
      seen: { enum: ['guessed', 'path'] },
      reads: { type: 'array', items: read },
      gaps: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
};

const ajv = new Ajv({ allErrors: true });
const validate = ajv.compile(SCHEMA);
const validateReference = ajv.compile(REFERENCE_SCHEMA);

/** The reference rows (reference.yaml) as call sites: each is the path's own examples, checked strictly. */
export function loadReference(file = REFERENCE_FILE): { sites: Site[]; problems: string[] } {
  const data: unknown = parse(fs.readFileSync(file, 'utf8'));
  if (!validateReference(data)) return { sites: [], problems: validateReference.errors!.map((e) => `reference.yaml${e.instancePath}: ${e.message}`) };
  const rows = data as { path: string; seen?: string; reads?: Read[]; gaps?: Record<string, string> }[];
  const sites = rows.map((row) => ({
    file: 'reference.yaml',
    host: HOSTS[0],
    path: row.path,
    repo: 'reference',
    genre: false,
    reads: row.reads ?? [],
    params: {},
    paramsKnown: false,
    source: `reference ${row.path}`,
    ...(row.gaps && { gaps: row.gaps }),
  }));
  return { sites, problems: [] };
}

export interface Corpus {
  repos: RepoFile[];
  /** Repositories counted (forks left out). */
  counted: RepoFile[];
  forks: RepoFile[];
  /** Repositories not marked fork_of whose call sites are those of one counted already (what they call, send and read). */
  copies: RepoFile[];
  sites: Site[];
  /** Files that break the format, with what is wrong. */
  problems: string[];
}

export function loadCorpus(dir = CORPUS_DIR): Corpus {
  const repos: RepoFile[] = [];
  const problems: string[] = [];
  for (const name of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    let data: unknown;
    try {
      data = parse(text);
    } catch (error) {
      problems.push(`${name}: not YAML (${(error as Error).message.split('\n')[0]})`);
      continue;
    }
    if (!validate(data)) {
      problems.push(`${name}: ${validate.errors!.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
      continue;
    }
    const file = data as unknown as RepoFile;
    if (name !== `${file.repo.replace('/', '--')}.yaml`) problems.push(`${name}: holds ${file.repo}, so it is named ${file.repo.replace('/', '--')}.yaml`);
    repos.push(file);
  }
  // GitHub names ignore case: one repository, one file
  const seen = new Map<string, string>();
  for (const r of repos) {
    const other = seen.get(r.repo.toLowerCase());
    if (other) problems.push(`${r.repo}: the same repository as ${other} (GitHub names ignore case)`);
    seen.set(r.repo.toLowerCase(), r.repo);
  }
  const known = new Set(seen.keys());
  const forks = repos.filter((r) => r.fork_of);
  for (const fork of forks) if (!known.has(fork.fork_of!.toLowerCase())) problems.push(`${fork.repo}: fork_of ${fork.fork_of}, which the corpus does not hold`);
  // a copy not marked fork_of (a clone under another name) has the very same call sites: counted once too
  const firstWith = new Map<string, RepoFile>();
  const copies: RepoFile[] = [];
  for (const r of repos.filter((r) => !r.fork_of)) {
    const key = signature(r);
    if (firstWith.has(key)) copies.push(r);
    else firstWith.set(key, r);
  }
  const counted = [...firstWith.values()];
  const sites = counted.flatMap((r) =>
    (r.calls ?? []).map((c) => ({
      ...c,
      repo: r.repo,
      genre: r.genre ?? false,
      reads: c.reads ?? [],
      params: c.params ?? {},
      paramsKnown: true,
      source: `${r.repo} ${c.file}${c.line ? `:${c.line}` : ''}`,
    })),
  );
  return { repos, counted, forks, copies, sites, problems };
}

/** What a repository calls, sends and reads, whatever its files are named. */
function signature(repo: RepoFile): string {
  const sites = (repo.calls ?? []).map((c) =>
    JSON.stringify([c.path.toLowerCase(), c.method ?? 'GET', Object.keys(c.params ?? {}).sort(), (c.reads ?? []).map((r) => [r.field, r.how, r.type]).sort()]),
  );
  return sites.sort().join('\n');
}

/** A site relies on exact names (or on bytes): at least one read is not a guess. */
export const isStrict = (site: Site) => site.reads.some((r) => r.how !== 'guess' && r.when !== 'failure');

/** The reads a successful answer must satisfy. */
export const onSuccess = (reads: Read[]) => reads.filter((r) => r.when !== 'failure');

/** The path as routes compare it: no case, no trailing slash. */
export const routeKey = (p: string) => p.toLowerCase().replace(/\/+$/, '') || '/';

/** Parameters that carry the key, not the call's input. */
export const KEY_PARAMS = new Set(['apikey', 'api_key', 'key']);
