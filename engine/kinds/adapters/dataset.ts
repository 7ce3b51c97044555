import fs from 'node:fs';
import path from 'node:path';
import { parseYaml } from '../../core/yaml.js';
import { compileMapping, EXPRESSION_SCHEMA, fillTemplate, type Expression } from '../../core/mapping.js';
import { ApiError } from '../../core/errors.js';
import { json, type AdapterKind, type AdapterSetup, type Output } from '../../contract/call.js';

/**
 * Local data sets shipped with the project (quotes, jokes, facts…): pick a random
 * item, optionally filtered by params, and map it to the result. With `live`, an
 * upstream is asked first and the data set is the fallback when it fails.
 */
interface DatasetConfig {
  file: string;
  /** JMESPath applied to the picked item (with `pick: all`, to the list of matching items). */
  result?: Expression;
  /** `random` (default): one random matching item; `all`: every matching item, in file order. */
  pick?: 'random' | 'all';
  /** item field -> param name; items must match every param the caller gave. */
  filter?: Record<string, string>;
  live?: { upstream: string; path: string; result?: Expression; timeoutMs?: number };
}

const cache = new Map<string, unknown[]>();

function readList(file: string): unknown[] {
  let list = cache.get(file);
  if (!list) {
    const text = fs.readFileSync(file, 'utf8');
    const parsed = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
    if (!Array.isArray(parsed) || parsed.length === 0) throw new Error(`${file}: a data set must be a non-empty list`);
    list = parsed;
    cache.set(file, list);
  }
  return list;
}

const randomIndex = (list: readonly unknown[]): number => Math.floor(Math.random() * list.length);

export const dataset: AdapterKind<DatasetConfig> = {
  kind: 'dataset',
  cost: 'light',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['file'],
    properties: {
      file: { type: 'string', description: 'JSON or YAML list, relative to the manifest' },
      result: EXPRESSION_SCHEMA,
      pick: { enum: ['random', 'all'], description: 'one random matching item (default) or all of them' },
      filter: { type: 'object', additionalProperties: { type: 'string' } },
      live: {
        type: 'object',
        additionalProperties: false,
        required: ['upstream', 'path'],
        properties: { upstream: { type: 'string' }, path: { type: 'string' }, result: EXPRESSION_SCHEMA, timeoutMs: { type: 'integer' } },
      },
    },
  },
  unavailable(config, setup) {
    if (!fs.existsSync(path.resolve(setup.manifestDir, config.file))) return `data file ${config.file} missing`;
    if (config.live && !setup.upstreams.has(config.live.upstream)) return `unknown upstream ${config.live.upstream}`;
    return undefined;
  },
  create(config, setup) {
    const items = readList(path.resolve(setup.manifestDir, config.file));
    const toResult = compileMapping(config.result);
    const live = config.live && liveSource(config.live, setup);
    // the data never changes: a picked item is mapped and serialised on its first pick, then
    // answered as it is (held for each item picked: at most the data set's size), by position
    // in the list, so an unfiltered pick is an array read rather than a hash of the item
    const answers: (Output | undefined)[] = new Array(items.length);
    const answerAt = (i: number): Output => {
      let answer = answers[i];
      if (!answer) {
        const result = toResult(items[i]);
        answers[i] = answer = json(result, JSON.stringify(result));
      }
      return answer;
    };
    const filterParams = Object.values(config.filter ?? {});
    // `call.signal` is read only when there is upstream work: the engine makes the abort machinery on first read
    return async (call) => {
      const { params } = call;
      if (live) {
        const answer = await live(params, call.signal).catch(() => undefined);
        if (answer !== undefined && answer !== null && answer !== '') return json(answer);
      }
      if (!anyGiven(filterParams, params)) return config.pick === 'all' ? json(toResult(items)) : answerAt(randomIndex(items));
      const matching: number[] = [];
      for (let i = 0; i < items.length; i++) if (matches(items[i], config.filter!, params)) matching.push(i);
      if (matching.length === 0) throw new ApiError('not_found', 'No entry matches the given parameters');
      return config.pick === 'all' ? json(toResult(matching.map((i) => items[i]))) : answerAt(matching[randomIndex(matching)]);
    };
  },
};

/** Whether the caller gave any of the filter's params (a loop: this runs on every call). */
function anyGiven(names: readonly string[], params: Record<string, unknown>): boolean {
  for (const name of names) if (params[name] !== undefined) return true;
  return false;
}

function matches(item: unknown, filter: Record<string, string>, params: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([field, param]) => {
    const wanted = params[param];
    if (wanted === undefined) return true;
    const value = (item as Record<string, unknown>)[field];
    return Array.isArray(value) ? value.includes(wanted) : value === wanted;
  });
}

function liveSource(live: NonNullable<DatasetConfig['live']>, setup: AdapterSetup) {
  if (setup.upstreams.unavailable(live.upstream)) return undefined;
  const toResult = compileMapping(live.result);
  return async (params: Record<string, unknown>, signal: AbortSignal) => {
    const path = String(fillTemplate(live.path, { params, env: setup.config.env }));
    return toResult(await setup.upstreams.call(live.upstream, { path, timeoutMs: live.timeoutMs, signal }));
  };
}
