import type { Endpoint, Example } from '../../engine/core/manifest-types.js';
import { expandFixtureUrls } from './fixture-urls.js';

/** Valid params for the endpoint: an example's (default its first), topped up with param examples, `${fixtures}` expanded to `filesBase`. */
export function validParams(endpoint: Endpoint, filesBase: string, example: Example = endpoint.examples[0]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(endpoint.params)) if (spec.example !== undefined && spec.in !== 'file') params[name] = spec.example;
  return expandFixtureUrls({ ...params, ...example.params }, filesBase);
}
