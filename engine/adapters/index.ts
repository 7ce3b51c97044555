import type { AdapterKind } from './types.js';
import { ai } from './ai.js';
import { dataset } from './dataset.js';
import { http } from './http.js';
import { media } from './media.js';

/** The closed set of adapter kinds a manifest may name. A new kind is one file plus one line here. */
export const ADAPTERS: ReadonlyMap<string, AdapterKind> = new Map([ai, dataset, http, media].map((kind) => [kind.kind, kind]));
