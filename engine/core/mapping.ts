import { compile, TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath';
import { fillPlaceholders, PLACEHOLDER_SYNTAX } from './placeholders.js';

/** A parsed JMESPath expression (the library does not export its node type). */
export type Ast = ReturnType<typeof compile>;

/**
 * Manifest-side data plumbing shared by the adapters: JMESPath expressions that map
 * an upstream's JSON (or a data-set item) to a result, and `${params.x}` / `${env.X}`
 * templates for request URLs and bodies. Both are compiled once at boot.
 *
 * An expression field holds either a short inline JMESPath string or a reference to a
 * named mapping (`{mapping: espn.scoreboard, with: {only: pre}}`), which the manifest
 * loader resolves (./manifest/mappings.ts) into the named expression plus the literal
 * value of each of its variables. Those values are bound as JMESPath variables through
 * a `let` node built around the parsed expression, never spliced into its text: a value
 * is always data, whatever characters it holds.
 */
export type Mapping = (data: unknown, variables?: Record<string, unknown>) => unknown;

/** A named mapping as the loader leaves it in an adapter config. */
export interface ResolvedMapping {
  /** `<upstream>.<name>`, for messages and the docs. */
  mapping: string;
  expression: string;
  /** Variable name (without `$`) -> literal value: the manifest's `with`, defaults, data files. */
  variables: Record<string, unknown>;
}

export type Expression = string | ResolvedMapping;

/**
 * The config schema of every expression field. Adapters use this very object, so
 * checks that walk a config by its schema (checkExpressions) find their expressions.
 */
export const EXPRESSION_SCHEMA = {
  description: 'inline JMESPath (short), or a named mapping: {mapping: <upstream>.<name>, with: {param: value}}',
  anyOf: [
    { type: 'string' },
    {
      type: 'object',
      additionalProperties: false,
      required: ['mapping', 'expression', 'variables'],
      properties: { mapping: { type: 'string' }, expression: { type: 'string' }, variables: { type: 'object' } },
    },
  ],
};

/**
 * Each `let` scope costs the interpreter a new runtime with its whole function table
 * (~60 entries), on every evaluation. So a named mapping's values, known at boot, are
 * put into the tree as literals once (inlineVariables), and per-call variables (an
 * adapter's `$params`) are bound only when the expression reads them.
 */
export function compileMapping(expression: Expression | undefined): Mapping {
  if (!expression) return (data) => data;
  const ast = typeof expression === 'string' ? compile(expression) : inlineVariables(compile(expression.expression), expression.variables);
  const read = variablesRead(ast);
  return (data, variables) => {
    const bound = variables && read.size > 0 ? readOnly(variables, read) : undefined;
    // per-call variables wrap the compiled tree: still data, never parsed
    return TreeInterpreter.search(bound ? bindVariables(ast, bound) : ast, (data ?? null) as JSONValue);
  };
}

/** The variables of `variables` that the expression reads, or undefined when it reads none of them. */
function readOnly(variables: Record<string, unknown>, read: ReadonlySet<string>): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const name of read) if (Object.hasOwn(variables, name)) (out ??= {})[name] = variables[name];
  return out;
}

/** A node of the parsed tree, as far as walking it needs. */
type Node = { type?: string; name?: string; bindings?: { variable: string }[] } & Record<string, unknown>;

/** Every `$name` the tree reads (a literal's value is data, never walked). */
function variablesRead(ast: Ast): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object' || (node as Node).type === 'Literal') return;
    if ((node as Node).type === 'Variable') names.add((node as Node).name!);
    else Object.values(node).forEach(walk);
  };
  walk(ast);
  return names;
}

/**
 * The tree with each `$name` of `variables` replaced by a literal of its value, as a
 * `let` binding it would give it, except where an inner `let` binds the same name again.
 */
export function inlineVariables(ast: Ast, variables: Record<string, unknown>): Ast {
  const inline = (node: unknown, values: ReadonlyMap<string, unknown>): unknown => {
    if (Array.isArray(node)) return node.map((n) => inline(n, values));
    if (node === null || typeof node !== 'object') return node;
    const { type, name, bindings } = node as Node;
    if (type === 'Literal') return node;
    if (type === 'Variable') return values.has(name!) ? { type: 'Literal', value: values.get(name!) } : node;
    const inner = type === 'LetExpression' ? new Map([...values].filter(([n]) => !bindings!.some((b) => b.variable === n))) : values;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) out[key] = inline(child, key === 'expression' ? inner : values);
    return out;
  };
  return inline(ast, new Map(Object.entries(variables))) as Ast;
}

/** `let $a = <literal>, … in <ast>`, built as a tree so no value is ever parsed as JMESPath. */
export function bindVariables(ast: Ast, variables: Record<string, unknown>): Ast {
  const bindings = Object.entries(variables).map(([variable, value]) => ({
    type: 'Binding' as const,
    variable,
    reference: { type: 'Literal' as const, value: value as JSONValue },
  }));
  return bindings.length === 0 ? ast : { type: 'LetExpression', bindings, expression: ast };
}

export interface TemplateScope {
  params: Record<string, unknown>;
  env: Readonly<Record<string, string>>;
}

/**
 * Fill a template's `${params.x}` and `${env.X}` from the call (core/placeholders.ts
 * decides what each becomes; an unset value as a whole comes out undefined, and is then
 * dropped from query objects by the caller).
 */
export const fillTemplate = (template: unknown, scope: TemplateScope): unknown =>
  fillPlaceholders(template, PLACEHOLDER_SYNTAX.call, (name) => {
    const dot = name.indexOf('.');
    return scope[name.slice(0, dot) as 'params' | 'env'][name.slice(dot + 1)];
  });
