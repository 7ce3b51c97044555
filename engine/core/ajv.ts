import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The engine's one Ajv factory. Every JSON Schema check takes its validator from here,
 * by what the check does to the data, so options and formats are decided once and each
 * kind of check compiles into one shared instance (each distinct schema compiled once):
 * - `as-written`: data checked as it stands — manifests, upstreams, mappings, effect
 *   templates, the AI model registry, settings descriptions, a key's admin fields;
 * - `fill-defaults`: adapter configs, whose schema defaults are written into them;
 * - `request`: a request's params, whose query strings are coerced to the declared
 *   types and whose defaults are filled in.
 * Created on first use: a boot from the compiled registry compiles no data-file schema.
 */
export type AjvUse = 'as-written' | 'fill-defaults' | 'request';

const OPTIONS: Record<AjvUse, Options> = {
  'as-written': { allErrors: false, strict: false, useDefaults: false },
  'fill-defaults': { allErrors: false, strict: false, useDefaults: true },
  request: { allErrors: false, strict: false, useDefaults: true, coerceTypes: true },
};

const instances = new Map<AjvUse, Ajv>();

export function ajvFor(use: AjvUse): Ajv {
  let ajv = instances.get(use);
  if (!ajv) {
    ajv = new Ajv(OPTIONS[use]);
    addFormats.default(ajv);
    instances.set(use, ajv);
  }
  return ajv;
}
