import type { Call } from '../../engine/contract/call.js';

/** The Call an adapter receives for a test key's request, with these params (adapter unit tests). */
export const adapterCall = (params: Record<string, unknown>): Call => ({
  params,
  signal: new AbortController().signal,
  baseUrl: 'http://api.test',
  requestId: 'r1',
  caller: { keyId: 'test', tier: 'test' },
});
