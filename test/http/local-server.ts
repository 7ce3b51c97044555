import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A throwaway HTTP server on a loopback address that counts what reaches it, so
 * tests can prove a refused request never connected and a retried one came back.
 */
export interface LocalServer {
  port: number;
  /** `http://<host>:<port>` */
  origin: string;
  /** Requests received, in order. */
  requests: http.IncomingMessage[];
  /** Responses whose connection closed before they finished (the client gave up). */
  abandoned: number;
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, server: LocalServer) => void;

export async function serve(t: { teardown(fn: () => unknown): void }, handler: Handler, host = '127.0.0.1', port = 0): Promise<LocalServer> {
  const server = http.createServer();
  const local: LocalServer = {
    port: 0,
    origin: '',
    requests: [],
    abandoned: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('request', (req, res) => {
    local.requests.push(req);
    res.on('close', () => {
      if (!res.writableFinished) local.abandoned++;
    });
    handler(req, res, local);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  local.port = (server.address() as AddressInfo).port;
  local.origin = `http://${host}:${local.port}`;
  t.teardown(() => local.close());
  return local;
}

/** Wait until `predicate` holds, checking on each turn of the event loop (no fixed sleeps). */
export async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setImmediate(resolve));
}
