import { compile } from '@jmespath-community/jmespath';
import { EXPRESSION_SCHEMA, type Ast } from '../core/mapping.js';

/**
 * Checks on the JMESPath a manifest holds, run when adapter configs are checked (build,
 * first boot, `npm run lint:endpoints`) and on every named mapping when it is loaded.
 * Logic that outgrows a line belongs in a named mapping (endpoints/mappings/), tables in
 * data files, anything bigger in a code handler: a YAML string is no place to review,
 * share or test a program.
 */

/** Longest inline expression, in characters; a named mapping may be longer. */
export const INLINE_MAX_CHARS = 400;
/** Most entries of a literal table (a JSON literal or a multi-select of literals) in any expression. */
export const TABLE_MAX_ENTRIES = 8;

/** Variables an expression reads that no `let` inside it binds (a named mapping's parameters). */
export function freeVariables(ast: Ast): Set<string> {
  const free = new Set<string>();
  const walk = (node: unknown, bound: ReadonlySet<string>): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => walk(child, bound));
    const n = node as { type?: string; name?: string; bindings?: { variable: string; reference: unknown }[]; expression?: unknown };
    if (n.type === 'Literal') return; // data, not nodes
    if (n.type === 'Variable') {
      if (!bound.has(n.name!)) free.add(n.name!);
      return;
    }
    if (n.type === 'LetExpression') {
      // JEP-18: the bindings are evaluated in the outer scope, the body in the new one
      for (const b of n.bindings!) walk(b.reference, bound);
      return walk(n.expression, new Set([...bound, ...n.bindings!.map((b) => b.variable)]));
    }
    for (const child of Object.values(n)) walk(child, bound);
  };
  walk(ast, new Set());
  return free;
}

/** Entries of the largest literal table in the expression: `{"a": …}` / `[…]` literals, or multi-selects of literals only. */
export function largestTable(ast: Ast): number {
  let largest = 0;
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    const n = node as { type?: string; value?: unknown; children?: { type: string; value?: { type: string } }[] };
    if (n.type === 'Literal') {
      const value = n.value;
      if (value && typeof value === 'object') largest = Math.max(largest, Array.isArray(value) ? value.length : Object.keys(value).length);
      return;
    }
    if (n.type === 'MultiSelectHash' && n.children!.every((kv) => kv.value?.type === 'Literal')) largest = Math.max(largest, n.children!.length);
    if (n.type === 'MultiSelectList' && n.children!.every((c) => c.type === 'Literal')) largest = Math.max(largest, n.children!.length);
    for (const child of Object.values(n)) walk(child);
  };
  walk(ast);
  return largest;
}

/** Parse an expression, or say why it cannot be parsed. */
export function parseExpression(text: string): Ast | string {
  try {
    return compile(text);
  } catch (err) {
    return `invalid JMESPath: ${(err as Error).message.split('\n')[0]}`;
  }
}

/** A literal table too big for an expression, as a problem sentence. */
export function tableProblem(ast: Ast): string | undefined {
  const entries = largestTable(ast);
  if (entries <= TABLE_MAX_ENTRIES) return undefined;
  return `a literal table of ${entries} entries inside JMESPath (limit ${TABLE_MAX_ENTRIES}): put the table in a data file bound by a named mapping's data (endpoints/mappings/data/), or the logic in a code handler`;
}

/** What is wrong with an inline expression (syntax, length, a table, a variable nothing binds), if anything. */
export function inlineProblem(text: string): string | undefined {
  const ast = parseExpression(text);
  if (typeof ast === 'string') return ast;
  if (text.length > INLINE_MAX_CHARS)
    return `inline JMESPath of ${text.length} characters (limit ${INLINE_MAX_CHARS}): move it to a named mapping in endpoints/mappings/<upstream>.yaml and write {mapping: <upstream>.<name>}`;
  const table = tableProblem(ast);
  if (table) return table;
  const [unbound] = freeVariables(ast);
  if (unbound !== undefined) return `$${unbound} is not bound by any let (parameters are for named mappings)`;
  return undefined;
}

/**
 * The first bad inline expression in an adapter config, found by walking the config
 * alongside its schema to every field whose schema is EXPRESSION_SCHEMA, as
 * [dotted field, problem]. Named mappings were checked when their file was loaded.
 */
export function checkExpressions(schema: unknown, value: unknown, field = ''): [string, string] | undefined {
  if (schema === EXPRESSION_SCHEMA) {
    const problem = typeof value === 'string' ? inlineProblem(value) : undefined;
    return problem ? [field, problem] : undefined;
  }
  const s = schema as { properties?: Record<string, unknown>; items?: unknown } | undefined;
  if (!s || !value || typeof value !== 'object') return undefined;
  const at = (key: string | number) => (field ? `${field}.${key}` : String(key));
  if (Array.isArray(value)) {
    if (!s.items) return undefined;
    for (const [i, item] of value.entries()) {
      const found = checkExpressions(s.items, item, at(i));
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, sub] of Object.entries(s.properties ?? {})) {
    const found = checkExpressions(sub, (value as Record<string, unknown>)[key], at(key));
    if (found) return found;
  }
  return undefined;
}
