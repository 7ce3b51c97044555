import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { SocksClient } from 'socks';

/**
 * MEDIA_PROXY: an outbound proxy for media fetches (a residential or datacenter egress
 * that media sites don't challenge), chained *behind* the SSRF guard: the egress proxy
 * checks every target first and then asks this proxy for a connection to the address it
 * checked, never to a name the proxy would resolve again. HTTP(S) proxies are asked with
 * CONNECT (Node's own parser reads the answer); SOCKS4/5 through the `socks` client.
 */
export type Dial = (address: string, port: number) => Promise<net.Socket>;

export const directDial: Dial = (address, port) =>
  new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port }, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });

const DIAL_TIMEOUT_MS = 15_000;

export function proxyDial(proxyUrl: string): Dial {
  const proxy = new URL(proxyUrl);
  const user = decodeURIComponent(proxy.username);
  const pass = decodeURIComponent(proxy.password);
  const port = Number(proxy.port) || { 'http:': 80, 'https:': 443, 'socks:': 1080, 'socks4:': 1080, 'socks5:': 1080, 'socks5h:': 1080 }[proxy.protocol];
  if (!port) throw new Error(`MEDIA_PROXY must be an http, https, socks4 or socks5 URL, got ${proxy.protocol}`);
  const host = proxy.hostname.replace(/^\[|\]$/g, '');

  if (proxy.protocol.startsWith('socks')) {
    const type = proxy.protocol === 'socks4:' ? 4 : 5;
    return async (address, targetPort) => {
      const { socket } = await SocksClient.createConnection({
        proxy: { host, port, type, ...(user ? { userId: user, password: pass } : {}) },
        command: 'connect',
        destination: { host: address, port: targetPort },
        timeout: DIAL_TIMEOUT_MS,
      });
      return socket;
    };
  }

  const client = proxy.protocol === 'https:' ? https : http;
  const authorization = user ? { 'Proxy-Authorization': `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` } : {};
  return (address, targetPort) =>
    new Promise((resolve, reject) => {
      const authority = `${net.isIPv6(address) ? `[${address}]` : address}:${targetPort}`;
      const req = client.request({
        host,
        port,
        method: 'CONNECT',
        path: authority,
        headers: { Host: authority, ...authorization },
        timeout: DIAL_TIMEOUT_MS,
        agent: false,
      });
      req.once('connect', (res, socket, head) => {
        if (res.statusCode !== 200) {
          socket.destroy();
          return reject(new Error(`MEDIA_PROXY answered CONNECT with ${res.statusCode}`));
        }
        if (head.length) socket.unshift(head);
        resolve(socket);
      });
      req.once('timeout', () => req.destroy(new Error('MEDIA_PROXY did not answer in time')));
      req.once('error', reject);
      req.end();
    });
}
