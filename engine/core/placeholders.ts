/**
 * Placeholders in declared data, and the one filler for them all. Each syntax belongs to
 * one kind of file, whose authors it is documented to (docs/contributing), so the three
 * stay; what a placeholder becomes is decided here only:
 * - `family`: `{{name}}`, `{{a.b}}`, `{{.}}` (the whole item), `{{name?}}` (optional) in a
 *   family manifest, from each item (catalog/family.ts);
 * - `env`: `${VAR}` in an upstream's headers and query, from the environment (catalog/upstreams.ts);
 * - `call`: `${params.x}` and `${env.X}` in an adapter's request, model, prompt or data
 *   path, from the call (core/mapping.ts fillTemplate, kinds/adapters/http.ts).
 * Group 1 of each pattern is the placeholder's name as the lookup receives it.
 */
export const PLACEHOLDER_SYNTAX = {
  family: /\{\{\s*([A-Za-z0-9_.]+\??)\s*\}\}/g,
  env: /\$\{([A-Z][A-Z0-9_]*)\}/g,
  call: /\$\{((?:params|env)\.[A-Za-z0-9_]+)\}/g,
} as const;

export type PlaceholderSyntax = (typeof PLACEHOLDER_SYNTAX)[keyof typeof PLACEHOLDER_SYNTAX];

/**
 * Fill the placeholders of `syntax` in a template: a string that is exactly one
 * placeholder takes the value as it is (numbers, booleans, lists and objects keep their
 * type); inside a longer string a value is written as text and an absent one as ''.
 * Arrays and objects are filled recursively, and an object's key whose value comes out
 * undefined is left out. `lookup` may throw (a required field missing).
 */
export function fillPlaceholders(template: unknown, syntax: PlaceholderSyntax, lookup: (name: string) => unknown): unknown {
  if (typeof template === 'string') {
    const whole = wholeOf(syntax).exec(template);
    if (whole) return lookup(whole[1]);
    return template.replace(syntax, (_m, name: string) => String(lookup(name) ?? ''));
  }
  if (Array.isArray(template)) return template.map((t) => fillPlaceholders(t, syntax, lookup));
  if (template && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(template)) {
      const filled = fillPlaceholders(v, syntax, lookup);
      if (filled !== undefined) out[k] = filled;
    }
    return out;
  }
  return template;
}

/** The names of the placeholders of `syntax` in a text, each once, in order. */
export const placeholderNames = (text: string, syntax: PlaceholderSyntax): string[] => [...new Set(Array.from(text.matchAll(syntax), (m) => m[1]))];

const wholes = new Map<RegExp, RegExp>();

/** The syntax anchored to a whole string (no `g`: exec keeps no state). */
function wholeOf(syntax: RegExp): RegExp {
  let whole = wholes.get(syntax);
  if (!whole) wholes.set(syntax, (whole = new RegExp(`^${syntax.source}$`)));
  return whole;
}
