import { forgetToken, readToken } from './token.js';

/**
 * Every call the console makes: the admin API of this server with the token from
 * sessionStorage as a Bearer header, the JSON envelope opened, and failures turned into
 * ApiFailure with the server's stable code, its message and the parameter it names.
 */

/** A refused or failed call, as the envelope tells it. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** `details[].param` of a 400: the field to mark in a form. */
    readonly params: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Called when the server refuses the token (403 forbidden): the app returns to the sign-in form. */
let onSignedOut: (message: string) => void = () => {};
export function whenSignedOut(handler: (message: string) => void): void {
  onSignedOut = handler;
}

interface Envelope<T> {
  success: boolean;
  result?: T;
  error?: string;
  message?: string;
  details?: { param?: string; problem?: string }[];
}

async function request<T>(method: string, path: string, body?: unknown, token = readToken()): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ApiFailure(0, 'network_error', 'The server did not answer: is it running?');
  }
  const envelope = (await res.json().catch(() => ({}))) as Envelope<T>;
  if (res.ok && envelope.success !== false) return envelope.result as T;
  const params = Object.fromEntries((envelope.details ?? []).filter((d) => d.param).map((d) => [d.param!, d.problem ?? 'is invalid']));
  const failure = new ApiFailure(res.status, envelope.error ?? `http_${res.status}`, envelope.message ?? res.statusText, params);
  if (res.status === 403 && failure.code === 'forbidden' && token) {
    forgetToken();
    onSignedOut(failure.message);
  }
  throw failure;
}

/** The same admin read as json(), as text: the usage CSV. */
export async function fetchText(path: string): Promise<string> {
  const res = await fetch(path, { headers: { Authorization: `Bearer ${readToken() ?? ''}` }, cache: 'no-store' });
  if (!res.ok) throw new ApiFailure(res.status, `http_${res.status}`, `The server answered ${res.status}`);
  return res.text();
}

/**
 * A route that answers without the admin token and outside the envelope (/health,
 * /health/ready): its status and JSON body, the token not sent.
 */
export async function fetchPublic<T>(path: string): Promise<{ status: number; body: T }> {
  let res: Response;
  try {
    res = await fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  } catch {
    throw new ApiFailure(0, 'network_error', 'The server did not answer: is it running?');
  }
  return { status: res.status, body: (await res.json()) as T };
}

/** A query string from the given values, skipping empty ones. */
export function query(values: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
  /** Try a token before keeping it. */
  check: (token: string) => request<unknown[]>('GET', '/api/admin/keys', undefined, token),
};
