import type net from 'node:net';
import { proxyDial, type Dial } from './outbound-proxy.js';

/**
 * MEDIA_PROXY naming several proxies (comma-separated): each connection of a media fetch
 * goes through the first proxy in the list that is not set aside. A proxy that fails to
 * connect (refused, no answer in time, CONNECT answered with another status than 200, a
 * SOCKS error) is set aside for `retryAfterMs` and the same connection is tried through the
 * next one, so a dead proxy costs one failed attempt, not a failed download. When every
 * proxy is set aside, they are all tried again in order (the list is never empty of
 * candidates). States are reported without credentials.
 */
export interface ProxyState {
  /** scheme://host:port, never the credentials. */
  proxy: string;
  up: boolean;
  /** Failed connects in a row. */
  failures: number;
  lastError?: string;
}

export interface FailoverDial extends Dial {
  states(): ProxyState[];
}

/** A proxy URL without its credentials, for logs and reports. */
export function redactProxy(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'an unparsable proxy URL';
  }
}

/** The proxies of MEDIA_PROXY: one URL, or several separated by commas (whitespace around them ignored). */
export function proxyList(raw: string): string[] {
  return raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

export function failoverDial(urls: string[], options: { retryAfterMs?: number; now?: () => number; dialFor?: (url: string) => Dial } = {}): FailoverDial {
  if (urls.length === 0) throw new Error('MEDIA_PROXY names no proxy');
  const retryAfterMs = options.retryAfterMs ?? 60_000;
  const now = options.now ?? Date.now;
  const make = options.dialFor ?? proxyDial;
  const proxies = urls.map((url) => ({ name: redactProxy(url), dial: make(url), failures: 0, asideUntil: 0, lastError: undefined as string | undefined }));

  const dial = (async (address: string, port: number): Promise<net.Socket> => {
    const available = proxies.filter((p) => p.asideUntil <= now());
    const order = available.length ? available : proxies;
    const errors: string[] = [];
    for (const proxy of order) {
      try {
        const socket = await proxy.dial(address, port);
        proxy.failures = 0;
        proxy.asideUntil = 0;
        proxy.lastError = undefined;
        return socket;
      } catch (error) {
        proxy.failures++;
        proxy.asideUntil = now() + retryAfterMs;
        // a proxy's error may quote its URL: keep credentials out of what is reported
        proxy.lastError = String((error as Error).message ?? error).replaceAll(urls[proxies.indexOf(proxy)], proxy.name);
        errors.push(`${proxy.name}: ${proxy.lastError}`);
      }
    }
    throw new Error(`every MEDIA_PROXY failed to connect (${errors.join('; ')})`);
  }) as FailoverDial;
  dial.states = () =>
    proxies.map((p) => ({ proxy: p.name, up: p.asideUntil <= now(), failures: p.failures, ...(p.lastError ? { lastError: p.lastError } : {}) }));
  return dial;
}

/** The dial for MEDIA_PROXY as the host wrote it: one proxy as before, several with failover. */
export function mediaProxyDial(raw: string): Dial {
  const urls = proxyList(raw);
  return urls.length === 1 ? proxyDial(urls[0]) : failoverDial(urls);
}
