import fs from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { parseYaml } from '../core/yaml.js';
import type { ResolvedMapping } from '../core/mapping.js';
import { freeVariables, parseExpression, tableProblem } from './expressions.js';
import { describe, ManifestError } from './schema-check.js';
import type { Sources } from './sources.js';
import { ajvFor } from '../core/ajv.js';

/**
 * Named, parameterised JMESPath mappings, one file per upstream: `mappings/espn.yaml`
 * holds `scoreboard`, which manifests name as `{mapping: espn.scoreboard, with: {…}}`
 * wherever an expression goes. A manifest's mappings folder is the nearest `mappings/`
 * above it (endpoints/mappings for the shipped tree; a test tree may carry its own).
 *
 * Parameters are literal values: the loader checks each against the parameter's schema
 * and hands it to the engine as a JMESPath variable (`$only`), bound around the parsed
 * expression (engine/core/mapping.ts), so no value is ever read as part of an expression. A
 * mapping's `data` binds a variable to a data file's contents the same way, which is
 * where lookup tables live. Every problem (unknown mapping, a parameter missing, unknown
 * or of the wrong type, an expression using a variable it does not declare) fails the
 * load with the manifest's file and the mapping's name. `$params` is the call's own
 * params, which the http adapter binds at each call (pick the entry the client named).
 */

/** The variable the http adapter binds to the call's params (engine/kinds/adapters/http.ts). */
const CALL_PARAMS = 'params';

interface ParamSpec {
  description: string;
  schema?: Record<string, unknown>;
  default?: unknown;
}

interface MappingSpec {
  description: string;
  params?: Record<string, ParamSpec>;
  data?: Record<string, string>;
  expression: string;
}

interface Named {
  name: string;
  file: string;
  spec: MappingSpec;
  data: Record<string, unknown>;
  validators: Record<string, ValidateFunction | undefined>;
}

const VARIABLE = { type: 'string', pattern: '^[a-z][A-Za-z0-9_]*$' };
const FILE_SCHEMA = {
  type: 'object',
  propertyNames: { pattern: '^[a-z][a-z0-9-]*$' },
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    required: ['description', 'expression'],
    properties: {
      description: { type: 'string', minLength: 1, description: 'what the mapping returns, for whoever reuses it' },
      params: {
        type: 'object',
        propertyNames: VARIABLE,
        additionalProperties: {
          type: 'object',
          additionalProperties: false,
          required: ['description'],
          properties: {
            description: { type: 'string', minLength: 1 },
            schema: { type: 'object', description: 'JSON Schema each given value must satisfy' },
            default: { description: 'value when a manifest gives none; without it the parameter is required' },
          },
        },
      },
      data: {
        type: 'object',
        propertyNames: VARIABLE,
        additionalProperties: { type: 'string', description: 'YAML or JSON file, relative to the mappings folder, bound to the variable' },
      },
      expression: { type: 'string', minLength: 1, description: 'JMESPath; reads each parameter and data name as $name' },
    },
  },
};

let validateFile: ValidateFunction | undefined;

export class MappingBook {
  /** Manifest directory -> its mappings folder (null: none above it). */
  private readonly folders = new Map<string, string | null>();
  /** Mappings folder -> `<upstream>.<name>` -> mapping; each folder is read on the first reference into it. */
  private readonly books = new Map<string, Map<string, Named>>();

  constructor(private readonly sources?: Sources) {}

  /** The config with every `{mapping, with}` object replaced by its resolved mapping. */
  resolve(config: Record<string, unknown>, manifestDir: string, rel: string): Record<string, unknown> {
    return this.walk(config, 'adapter.config', manifestDir, rel) as Record<string, unknown>;
  }

  private walk(value: unknown, field: string, dir: string, rel: string): unknown {
    if (Array.isArray(value)) return value.map((v, i) => this.walk(v, `${field}.${i}`, dir, rel));
    if (!value || typeof value !== 'object') return value;
    if (Object.hasOwn(value, 'mapping')) return this.reference(value as Record<string, unknown>, field, dir, rel);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.walk(v, `${field}.${k}`, dir, rel)]));
  }

  private reference(ref: Record<string, unknown>, field: string, dir: string, rel: string): ResolvedMapping {
    const fail = (problem: string, at = field) => new ManifestError(rel, at, problem);
    const extra = Object.keys(ref).find((k) => k !== 'mapping' && k !== 'with');
    if (extra) throw fail(`unknown field "${extra}" (a mapping reference has mapping and with)`);
    const name = ref.mapping;
    if (typeof name !== 'string' || !/^[a-z0-9-]+\.[a-z][a-z0-9-]*$/.test(name)) throw fail('must be <upstream>.<name>', `${field}.mapping`);
    const folder = this.folderOf(dir);
    if (!folder) throw fail(`mapping "${name}": no mappings folder above the manifest`, `${field}.mapping`);
    const book = this.bookOf(folder);
    const named = book.get(name);
    if (!named) {
      const upstream = name.split('.')[0];
      const siblings = [...book.values()].filter((m) => m.name.startsWith(`${upstream}.`)).map((m) => m.name.slice(upstream.length + 1));
      const known = siblings.length ? `mappings/${upstream}.yaml has: ${siblings.join(', ')}` : `no mappings/${upstream}.yaml`;
      throw fail(`unknown mapping "${name}" (${known})`, `${field}.mapping`);
    }
    const given = ref.with ?? {};
    if (typeof given !== 'object' || Array.isArray(given)) throw fail('must be an object of parameter values', `${field}.with`);
    const params = named.spec.params ?? {};
    const declared = Object.keys(params);
    for (const key of Object.keys(given)) {
      if (!Object.hasOwn(params, key))
        throw fail(`mapping ${name} has no parameter "${key}" (parameters: ${declared.join(', ') || 'none'})`, `${field}.with.${key}`);
    }
    const variables: Record<string, unknown> = { ...named.data };
    for (const [key, spec] of Object.entries(params)) {
      const value = Object.hasOwn(given, key) ? (given as Record<string, unknown>)[key] : spec.default;
      if (value === undefined) throw fail(`mapping ${name} needs parameter "${key}": ${spec.description}`, `${field}.with`);
      const validate = named.validators[key];
      if (validate && !validate(value)) throw fail(`parameter of mapping ${name}: ${describe(validate.errors![0])[1]}`, `${field}.with.${key}`);
      variables[key] = value;
    }
    return { mapping: name, expression: named.spec.expression, variables };
  }

  private folderOf(dir: string): string | null {
    let folder = this.folders.get(dir);
    if (folder === undefined) {
      const candidate = path.join(dir, 'mappings');
      const parent = path.dirname(dir);
      folder = fs.existsSync(candidate) && fs.statSync(candidate).isDirectory() ? candidate : parent === dir ? null : this.folderOf(parent);
      this.folders.set(dir, folder);
    }
    return folder;
  }

  private bookOf(folder: string): Map<string, Named> {
    let book = this.books.get(folder);
    if (!book) {
      book = readFolder(folder, this.sources);
      this.books.set(folder, book);
    }
    return book;
  }
}

/** Every mapping of a folder, checked: file shape, parsable expression, variables exactly the declared ones, no big tables. */
function readFolder(folder: string, sources?: Sources): Map<string, Named> {
  sources?.dir(folder);
  validateFile ??= ajvFor('as-written').compile(FILE_SCHEMA);
  const book = new Map<string, Named>();
  for (const entry of fs.readdirSync(folder).sort()) {
    if (!/\.ya?ml$/.test(entry)) continue;
    const file = path.join(folder, entry);
    const rel = path.join(path.basename(folder), entry);
    sources?.file(file);
    const upstream = entry.replace(/\.ya?ml$/, '');
    let raw: unknown;
    try {
      raw = parseYaml(fs.readFileSync(file, 'utf8'), { prettyErrors: true });
    } catch (err) {
      throw new ManifestError(rel, '', `invalid YAML: ${(err as Error).message.split('\n')[0]}`);
    }
    if (!validateFile(raw)) throw new ManifestError(rel, ...describe(validateFile.errors![0]));
    for (const [name, spec] of Object.entries(raw as Record<string, MappingSpec>)) {
      const fail = (field: string, problem: string) => new ManifestError(rel, `${name}${field ? `.${field}` : ''}`, problem);
      const ast = parseExpression(spec.expression);
      if (typeof ast === 'string') throw fail('expression', ast);
      const table = tableProblem(ast);
      if (table) throw fail('expression', table);
      const params = Object.keys(spec.params ?? {});
      const dataNames = Object.keys(spec.data ?? {});
      const reserved = [...params, ...dataNames].find((v) => v === CALL_PARAMS);
      if (reserved) throw fail('', `"${CALL_PARAMS}" is reserved: the http adapter binds $${CALL_PARAMS} to the call's params`);
      const clash = params.find((p) => dataNames.includes(p));
      if (clash) throw fail(`data.${clash}`, 'is also a parameter');
      const free = freeVariables(ast);
      const undeclared = [...free].find((v) => v !== CALL_PARAMS && !params.includes(v) && !dataNames.includes(v));
      if (undeclared) throw fail('expression', `$${undeclared} is neither a parameter nor a data name of the mapping`);
      const unused = [...params, ...dataNames].find((v) => !free.has(v));
      if (unused) throw fail('', `declares "${unused}" but the expression never reads $${unused}`);
      const validators: Named['validators'] = {};
      for (const [param, p] of Object.entries(spec.params ?? {})) {
        validators[param] = p.schema && ajvFor('as-written').compile(p.schema);
        if (p.default !== undefined && validators[param] && !validators[param]!(p.default))
          throw fail(`params.${param}.default`, 'does not satisfy its schema');
      }
      const data: Record<string, unknown> = {};
      for (const [variable, dataFile] of Object.entries(spec.data ?? {}))
        data[variable] = readData(path.resolve(folder, dataFile), sources, () => fail(`data.${variable}`, `cannot read ${dataFile}`));
      book.set(`${upstream}.${name}`, { name: `${upstream}.${name}`, file: rel, spec, data, validators });
    }
  }
  return book;
}

function readData(file: string, sources: Sources | undefined, failure: () => Error): unknown {
  sources?.file(file);
  try {
    const text = fs.readFileSync(file, 'utf8');
    return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch {
    throw failure();
  }
}
