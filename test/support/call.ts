import fs from 'node:fs';
import path from 'node:path';
import type { Endpoint } from '../../engine/core/manifest-types.js';

export interface Answer {
  status: number;
  headers: Headers;
  json?: any;
  bytes: Buffer;
}

/**
 * Call an endpoint the way a client would: GET params in the query string, POST
 * params in a JSON body (or multipart when the endpoint takes files), the key as
 * `apikey` where clients of the genre put it.
 */
export async function callEndpoint(
  base: string,
  endpoint: Endpoint,
  params: Record<string, unknown>,
  options: { key?: string; files?: Record<string, string> } = {},
): Promise<Answer> {
  const all: Record<string, unknown> = { ...params, ...(options.key !== undefined ? { apikey: options.key } : {}) };
  let route = endpoint.path;
  for (const [name, spec] of Object.entries(endpoint.params)) {
    if (spec.in === 'path' && all[name] !== undefined) {
      route = route.replace(`:${name}`, encodeURIComponent(String(all[name])));
      delete all[name];
    }
  }
  const url = new URL(route, base);
  const init: RequestInit = { method: endpoint.method };
  if (endpoint.method === 'GET' || endpoint.method === 'DELETE') {
    for (const [k, v] of Object.entries(all)) url.searchParams.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  } else if (options.files || !endpoint.body.includes('json')) {
    const form = new FormData();
    for (const [k, v] of Object.entries(all)) form.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    for (const [field, file] of Object.entries(options.files ?? {})) {
      form.set(field, new Blob([fs.readFileSync(path.resolve(endpoint.dir, file))]), path.basename(file));
    }
    init.body = form;
  } else {
    init.body = JSON.stringify(all);
    init.headers = { 'content-type': 'application/json' };
  }
  return readAnswer(await fetch(url, { ...init, redirect: 'manual' }));
}

/** A response read whole: its JSON parsed when its type says JSON (undefined when that JSON is broken). */
export async function readAnswer(res: Response): Promise<Answer> {
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  if (isJson(res.headers)) {
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      json = undefined;
    }
  }
  return { status: res.status, headers: res.headers, json, bytes };
}

export const isJson = (headers: Headers) => (headers.get('content-type') ?? '').includes('application/json');
