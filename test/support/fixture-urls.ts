/**
 * `${fixtures}/<file>` in a manifest example's params: a URL the harness serves from
 * the fixtures/ folder beside the manifest, so endpoints whose input is itself a URL
 * (an image to decode, a page to screenshot, a clip to download) get success examples
 * that run offline. The engine never sees the placeholder: the harness expands it.
 */

export const FIXTURES_PLACEHOLDER = '${fixtures}';
const REFERENCE = /\$\{fixtures\}\/([^?#\s]+)/g;

/** `value` with every `${fixtures}` in its strings replaced by `base` (deeply, through arrays and objects). */
export function expandFixtureUrls<T>(value: T, base: string): T {
  if (typeof value === 'string') return value.replaceAll(FIXTURES_PLACEHOLDER, base) as T;
  if (Array.isArray(value)) return value.map((v) => expandFixtureUrls(v, base)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandFixtureUrls(v, base)])) as T;
  }
  return value;
}

/** The fixture files (relative to fixtures/, URL-decoded) that `value`'s strings refer to as `${fixtures}/<file>`. */
export function fixtureUrlFiles(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(REFERENCE)].map((m) => decodeURIComponent(m[1]));
  if (Array.isArray(value)) return value.flatMap(fixtureUrlFiles);
  if (value && typeof value === 'object') return Object.values(value).flatMap(fixtureUrlFiles);
  return [];
}
