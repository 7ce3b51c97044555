import type { ErrorObject } from 'ajv';

/** A manifest problem, reported as `file: field: problem` at boot and by lint. */
export class ManifestError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${file}: ${field || '(root)'}: ${problem}`);
    this.name = 'ManifestError';
  }
}

/** ajv error → [field, problem] with the field as a dotted path. */
export function describe(error: ErrorObject): [string, string] {
  const field = error.instancePath.slice(1).replace(/\//g, '.');
  const extra = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return [field, `unknown field "${extra.additionalProperty}"`];
  if (error.keyword === 'required') return [field, `missing field "${extra.missingProperty}"`];
  if (error.keyword === 'enum') return [field, `must be one of: ${(extra.allowedValues as unknown[]).join(', ')}`];
  return [field, error.message ?? error.keyword];
}
