import type { AdapterKind } from '../../contract/call.js';
import { ai } from './ai.js';
import { code } from './code.js';
import { dataset } from './dataset.js';
import { effect } from './effect.js';
import { http } from './http.js';
import { media } from './media.js';
import { upload } from './upload.js';

/** The closed set of adapter kinds a manifest may name. A new kind is one file plus one line here. */
export const ADAPTERS: ReadonlyMap<string, AdapterKind> = new Map([ai, code, dataset, effect, http, media, upload].map((kind) => [kind.kind, kind]));
