import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';

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

let sharedAjv: Ajv | undefined;

/**
 * The one validator for project data files against their schemas (manifests, upstreams,
 * effect templates); created on first use, as a boot from the compiled registry needs none.
 */
export function schemaAjv(): Ajv {
  if (!sharedAjv) {
    sharedAjv = new Ajv({ allErrors: false, strict: false, useDefaults: false });
    addFormats.default(sharedAjv);
  }
  return sharedAjv;
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
