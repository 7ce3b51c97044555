import type { AdapterSetup } from '../../contract/call.js';
import { unavailable, upstreamError } from '../../core/errors.js';

/**
 * Spotify Web API access with the client-credentials flow: one bearer token per app
 * (client id + accounts base URL) and engine (its scope holds them), kept until a minute
 * before it expires, and one token request shared by every caller that misses at once
 * (single-flight).
 */
interface Held {
  token: string;
  expiresAt: number;
}

interface Tokens {
  held: Map<string, Held>;
  pending: Map<string, Promise<Held>>;
}

const tokensOf = (setup: AdapterSetup): Tokens => setup.scope.own('spotify tokens', () => ({ held: new Map(), pending: new Map() }));
const MARGIN_MS = 60_000;

async function fetchToken(setup: AdapterSetup, signal?: AbortSignal): Promise<Held> {
  const { SPOTIFY_CLIENT_ID: id, SPOTIFY_CLIENT_SECRET: secret } = setup.config.env;
  const answer = await setup.upstreams.call<{ access_token?: unknown; expires_in?: unknown }>('spotify-accounts', {
    method: 'POST',
    path: '/api/token',
    form: { grant_type: 'client_credentials' },
    // the accounts service wants the app's credentials as HTTP Basic (not expressible as a ${VAR} header)
    headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` },
    signal,
  });
  if (typeof answer?.access_token !== 'string') throw upstreamError('spotify-accounts', 'no access_token in the answer');
  const seconds = typeof answer.expires_in === 'number' ? answer.expires_in : 3600;
  return { token: answer.access_token, expiresAt: Date.now() + seconds * 1000 - MARGIN_MS };
}

/** A valid bearer token for spotify-api (503 when the app's keys are not set). */
export async function spotifyToken(setup: AdapterSetup, signal?: AbortSignal): Promise<string> {
  const key = `${setup.upstreams.get('spotify-accounts').baseUrl} ${setup.config.env.SPOTIFY_CLIENT_ID}`;
  const { held, pending } = tokensOf(setup);
  const current = held.get(key);
  if (current && current.expiresAt > Date.now()) return current.token;
  let inflight = pending.get(key);
  if (!inflight) {
    // not tied to one caller's signal: the shared request must outlive a client that leaves
    inflight = fetchToken(setup).finally(() => pending.delete(key));
    pending.set(key, inflight);
  }
  const fresh = await inflight;
  held.set(key, fresh);
  return fresh.token;
}

/** One Web API call with the bearer token (503 naming the variables when the keys are unset). */
export async function spotifyApi<T>(setup: AdapterSetup, path: string, query: Record<string, string | number | undefined>, signal?: AbortSignal): Promise<T> {
  const why = setup.upstreams.unavailable('spotify-accounts') ?? setup.upstreams.unavailable('spotify-api');
  if (why) throw unavailable(why);
  const token = await spotifyToken(setup, signal);
  return setup.upstreams.call<T>('spotify-api', { path, query, headers: { authorization: `Bearer ${token}` }, signal });
}

/**
 * One page of the Web API's search for `type` (track, playlist…): its items without the
 * null entries Spotify puts where it withholds one. A missing list is an upstream error.
 */
export async function spotifySearch<T extends { id?: string }>(
  setup: AdapterSetup,
  type: 'track' | 'playlist',
  q: string,
  limit: number,
  signal?: AbortSignal,
): Promise<T[]> {
  const answer = await spotifyApi<Record<string, { items?: (T | null)[] } | undefined>>(setup, '/search', { q, type, limit }, signal);
  const items = answer?.[`${type}s`]?.items;
  if (!Array.isArray(items)) throw upstreamError('spotify-api', `no ${type}s list in the answer`);
  return items.filter((item): item is T => !!item?.id);
}
