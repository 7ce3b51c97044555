import fs from 'node:fs';
import path from 'node:path';
import { COMPILED_CATALOG, ENDPOINTS_DIR, ROOT } from '../../engine/app/app.js';
import { loadCompiledCatalog } from '../../engine/pipeline/compiled-catalog.js';
import { overrideVariable } from '../../engine/core/binaries.js';
import type { Endpoint } from '../../engine/core/manifest-types.js';
import type { UpstreamSpec } from '../../engine/catalog/upstreams.js';

/**
 * Every environment variable Manifold reads, found where it is read rather than listed
 * by hand: the engine's code (`env.X`, `env['X']`, a settings parser called as
 * `positiveInt(env, 'X', …)`, destructured `{ X: … } = env`), the executables it spawns
 * (each has an override variable, binaries.ts), the manifests (`requires`, `${env.X}`
 * in adapter configs) and the upstream specs (base URL, keys, `${X}` in headers and
 * query, DNS/WHOIS servers). docs/operating/settings.md and .env.example are generated from this
 * and engine/platform/settings/variables.yaml; test/settings checks that the two agree.
 */
export interface VariableUse {
  name: string;
  /** Where it is read: `engine/platform/config.ts`, `endpoints/upstreams/acoustid.yaml`, `binary ffmpeg`… (sorted, unique). */
  readBy: string[];
  /** Set when the variable is an upstream's base URL: the upstream and its default. */
  upstreamUrl?: { upstream: string; default?: string };
  /** Set when the variable is an executable's override path. */
  binary?: string;
}

/** The operating system's own variables, read for what they mean to every program, not settings of Manifold's. */
const SYSTEM_VARIABLES = new Set(['PATH']);

/** Directories whose code the server runs (tests and benches set variables; they are not settings). */
const CODE_DIRS = ['engine', 'scripts'];
/** This scanner's own directory: its patterns and examples name variables without reading them. */
const NOT_SCANNED = path.join('scripts', 'settings');

const NAME = '[A-Z][A-Z0-9_]*[A-Z0-9]';
const CODE_PATTERNS = [
  // env.X, env?.X, process.env.X, config.env.X
  new RegExp(`\\benv\\??\\.(${NAME})\\b`, 'g'),
  // env['X'], env["X"]
  new RegExp(`\\benv\\[\\s*['"](${NAME})['"]\\s*\\]`, 'g'),
  // a settings parser: positiveInt(env, 'X', …), nonNegativeInt(config.env, 'X', …)
  new RegExp(`\\w+\\(\\s*[\\w.]*env\\s*,\\s*['"](${NAME})['"]`, 'g'),
];
/** `env[variable]`: a name chosen at run time, so the file's quoted names are taken as read (otlp-target.ts picks a protocol variable). */
const DYNAMIC_READ = /\benv\[\s*[A-Za-z_$][\w$.]*\s*\]/;
// with an underscore: error codes such a file also quotes (`'ENOENT'`) are single words
const QUOTED_NAME = /['"]([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])['"]/g;
/** `const { A: a, B } = env` or `= config.env`. */
const DESTRUCTURED = /\{([^{}]*)\}\s*=\s*[\w.]*\benv\b/g;
/** An executable the code spawns or looks for by name: binaryPath('fpcalc', env), onPath('flite', env). */
const BINARY_CALL = /\b(?:binaryPath|onPath|locate)\(\s*['"]([\w.-]+)['"]/g;
/** `${env.X}` in a manifest's strings; `${X}` in an upstream's headers and query. */
const MANIFEST_VAR = new RegExp(`\\$\\{env\\.(${NAME})\\}`, 'g');
const UPSTREAM_VAR = new RegExp(`\\$\\{(${NAME})\\}`, 'g');

export function scanVariables(root = ROOT): Map<string, VariableUse> {
  const found = new Map<string, VariableUse>();
  const add = (name: string, where: string, extra?: Partial<VariableUse>) => {
    if (SYSTEM_VARIABLES.has(name)) return;
    const use = found.get(name) ?? { name, readBy: [] };
    if (!use.readBy.includes(where)) use.readBy.push(where);
    Object.assign(use, extra);
    found.set(name, use);
  };
  const addBinary = (bin: string, where: string) => add(overrideVariable(bin), where, { binary: bin });

  for (const file of codeFiles(root)) {
    const rel = path.relative(root, file);
    const text = fs.readFileSync(file, 'utf8');
    for (const pattern of CODE_PATTERNS) for (const m of text.matchAll(pattern)) add(m[1], rel);
    if (DYNAMIC_READ.test(text)) for (const m of text.matchAll(QUOTED_NAME)) add(m[1], rel);
    for (const m of text.matchAll(DESTRUCTURED))
      for (const part of m[1].split(',')) {
        const key = part.split(':')[0].trim();
        if (new RegExp(`^${NAME}$`).test(key)) add(key, rel);
      }
    for (const m of text.matchAll(BINARY_CALL)) addBinary(m[1], rel);
  }

  const { endpoints, upstreams } = loadCompiledCatalog(ENDPOINTS_DIR, COMPILED_CATALOG);
  for (const endpoint of endpoints) scanEndpoint(endpoint, add, addBinary);
  for (const spec of upstreams) scanUpstream(spec, add);
  for (const use of found.values()) use.readBy.sort();
  return new Map([...found].sort(([a], [b]) => a.localeCompare(b)));
}

type Add = (name: string, where: string, extra?: Partial<VariableUse>) => void;

function scanEndpoint(endpoint: Endpoint, add: Add, addBinary: (bin: string, where: string) => void): void {
  const where = `endpoints/${endpoint.file}`;
  const { anyOf = [], ...all } = endpoint.requires;
  for (const needs of [all, ...anyOf]) {
    for (const name of needs.env ?? []) add(name, where);
    for (const bin of needs.bin ?? []) addBinary(bin, where);
  }
  // a code endpoint's `{ name, bin }` upstreams and every ${env.X} of its adapter config
  const upstreamBins = (endpoint.adapter.config as { upstreams?: unknown[] }).upstreams ?? [];
  for (const u of upstreamBins) if (typeof u === 'object' && u && 'bin' in u) for (const bin of (u as { bin: string[] }).bin) addBinary(bin, where);
  for (const m of JSON.stringify(endpoint.adapter.config ?? {}).matchAll(MANIFEST_VAR)) add(m[1], where);
}

function scanUpstream(spec: UpstreamSpec, add: Add): void {
  const where = `endpoints/upstreams/${spec.name}.yaml`;
  if (spec.baseUrl) add(spec.baseUrl.env, where, { upstreamUrl: { upstream: spec.name, default: spec.baseUrl.default } });
  for (const name of spec.requires ?? []) add(name, where);
  for (const value of [...Object.values(spec.headers ?? {}), ...Object.values(spec.query ?? {})])
    for (const m of value.matchAll(UPSTREAM_VAR)) add(m[1], where);
  for (const source of Object.values(spec.servers ?? {})) add(source.env, where);
}

function codeFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of CODE_DIRS) {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (path.relative(root, file).startsWith(NOT_SCANNED + path.sep)) continue;
      if (entry.isFile() && /\.(ts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(file);
    }
  }
  return out.sort();
}
