import { compile, TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath';

/**
 * Manifest-side data plumbing shared by the adapters: JMESPath expressions that map
 * an upstream's JSON (or a data-set item) to a result, and `${params.x}` / `${env.X}`
 * templates for request URLs and bodies. Both are compiled once at boot.
 */
export type Mapping = (data: unknown) => unknown;

export function compileMapping(expression: string | undefined): Mapping {
  if (!expression) return (data) => data;
  const ast = compile(expression);
  return (data) => TreeInterpreter.search(ast, (data ?? null) as JSONValue);
}

export interface TemplateScope {
  params: Record<string, unknown>;
  env: Readonly<Record<string, string>>;
}

const EXPR = /\$\{(params|env)\.([A-Za-z0-9_]+)\}/g;
const WHOLE = /^\$\{(params|env)\.([A-Za-z0-9_]+)\}$/;

/**
 * Fill a template. A string that is exactly one `${...}` keeps the value's type
 * (numbers and booleans stay typed in JSON bodies); objects and arrays are filled
 * recursively; unset values become '' inside strings and undefined as whole values
 * (and are then dropped from query objects by the caller).
 */
export function fillTemplate(template: unknown, scope: TemplateScope): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole) return scope[whole[1] as 'params' | 'env'][whole[2]];
    return template.replace(EXPR, (_m, root: 'params' | 'env', key: string) => String(scope[root][key] ?? ''));
  }
  if (Array.isArray(template)) return template.map((t) => fillTemplate(t, scope));
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(template)) {
      const filled = fillTemplate(v, scope);
      if (filled !== undefined) out[k] = filled;
    }
    return out;
  }
  return template;
}
