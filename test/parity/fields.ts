/**
 * Field paths as clients read them, over a JSON value: `result.download_url`, `results[].title`
 * (`[]`: every item of a list), `a|b` (either will do). Shared by the parity tests.
 */

/** The values a field path reaches (`[]` = every item), with undefined where it breaks off. */
export function reach(value: unknown, steps: string[]): unknown[] {
  if (steps.length === 0) return [value];
  const [step, ...rest] = steps;
  // an empty list has no item lacking the field; a non-list has no items at all
  if (step === '[]') return Array.isArray(value) ? value.flatMap((item) => reach(item, rest)) : [undefined];
  const next = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
  return next === undefined ? [undefined] : reach(next, rest);
}

export const stepsOf = (field: string) => field.split(/\.|(?=\[\])|(?<=\[\])\.?/).filter(Boolean);

export type JsonType = 'string' | 'number' | 'boolean' | 'array' | 'object';

export const typeOf = (value: unknown): JsonType | 'null' | 'undefined' =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as JsonType | 'undefined');

/** Is the field (`a|b`: either) in the value, in every item it goes through, and of the type when one is given? */
export function present(value: unknown, field: string, type?: JsonType): boolean {
  return field
    .split('|')
    .some((one) =>
      reach(value, stepsOf(one)).every(
        (v) => v !== undefined && (type === undefined || (typeOf(v) === type && (type !== 'string' || (v as string).length > 0))),
      ),
    );
}

/** Is the field declared by a JSON schema (properties, items, anyOf/oneOf branches)? */
export function declared(schema: any, steps: string[]): boolean {
  if (!schema || typeof schema !== 'object') return false;
  if (steps.length === 0) return true;
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  if (branches.some((b: unknown) => declared(b, steps))) return true;
  const [step, ...rest] = steps;
  if (step === '[]') return declared(schema.items, rest);
  return declared(schema.properties?.[step], rest) || (Array.isArray(schema.required) && schema.required.includes(step) && rest.length === 0);
}

/** The JSON types a schema allows for its value (empty: any). */
export function schemaTypes(schema: any): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return [...[schema.type ?? []].flat(), ...branches.flatMap(schemaTypes)].map((t) => (t === 'integer' ? 'number' : t));
}
