import type { ParamSpec } from '../core/manifest-types.js';

/**
 * Why a POST endpoint does not also answer GET with its params in the query, or undefined
 * when it does (manifest/types.ts `alsoGet`): a secret param must not sit in a URL (URLs
 * are logged, cached and shared), and a file upload has no query form. The one rule, read
 * by the loader for `alsoGet` and by the dispatcher to explain its 405.
 */
export function getRefusal(params: Readonly<Record<string, ParamSpec>>): string | undefined {
  const entries = Object.entries(params);
  const secret = entries.find(([, spec]) => spec.secret)?.[0];
  if (secret) return `its ${secret} parameter is a secret, which must not sit in a URL`;
  const file = entries.find(([, spec]) => spec.in === 'file')?.[0];
  return file ? `it takes ${file} as a multipart file upload` : undefined;
}
