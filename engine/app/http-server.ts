import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Config } from '../platform/config.js';
import { failure } from '../pipeline/envelope.js';
import { badRequest, headersTooLarge, requestTimeout, type ApiError } from '../core/errors.js';
import { ClientCap, clientAddressing, peerAddress, tooManyConnections, type ClientAddressing } from '../platform/http/client-cap.js';

/**
 * The listening server, with the limits that protect it before a request reaches the
 * engine: HEADERS_TIMEOUT_MS for the request line and headers, REQUEST_TIMEOUT_MS for
 * the whole request (headers and body — never the answer, so long downloads keep
 * streaming), and an envelope instead of Node's bare status line for whatever Node's
 * HTTP parser refuses (`clientError`). CLIENT_MAX_CONNECTIONS caps what one client
 * address holds (http/client-cap.ts): connections of a direct client, requests in
 * progress of a client behind a trusted proxy (TRUST_PROXY, unless `clients` says otherwise).
 * HTTPS with HSTS when TLS_CERT_FILE and TLS_KEY_FILE are set. `npm start` (main.ts)
 * and the tests build the server here.
 */
export type HttpServer = http.Server | https.Server;

/** How often Node checks the header and request timeouts (its default, 30 s, would let a timeout run 30 s late). */
const TIMEOUT_CHECK_MS = 1000;

export function createHttpServer(config: Config, handler: http.RequestListener, clients: ClientAddressing = clientAddressing(config.trustProxy)): HttpServer {
  const options: http.ServerOptions = {
    // Node refuses a headers timeout longer than the whole request's (0 turns either off)
    headersTimeout: config.requestTimeoutMs ? Math.min(config.headersTimeoutMs, config.requestTimeoutMs) : config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    keepAliveTimeout: 65_000,
  };
  const cap = config.clientMaxConnections ? new ClientCap(config.clientMaxConnections) : undefined;
  const serve = cap ? capRequests(config, cap, clients, handler) : handler;
  const server =
    config.tlsCertFile && config.tlsKeyFile
      ? https.createServer({ ...options, cert: fs.readFileSync(config.tlsCertFile), key: fs.readFileSync(config.tlsKeyFile) }, (req, res) => {
          res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
          serve(req, res);
        })
      : http.createServer(options, serve);
  if (cap) capConnections(server, config, cap, clients);
  // A client that sends `Expect: 100-continue` (curl does for bodies over 1 MB) waits for
  // the go-ahead: the pipeline gives it (writeContinue) only once the body is wanted.
  server.on('checkContinue', serve);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(config, err, socket));
  return server;
}

/**
 * Count each direct client's connections from the moment they are accepted, and refuse
 * the excess before Node's HTTP machinery takes it on: the server's own 'connection'
 * listener (HTTP's parser, or TLS's handshake) runs only for admitted sockets.
 */
function capConnections(server: HttpServer, config: Config, cap: ClientCap, clients: ClientAddressing): void {
  const accept = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const peer = peerAddress(socket.remoteAddress);
    if (!clients.viaProxy(peer)) {
      if (!cap.take(peer)) return refuseConnection(config, socket, server instanceof https.Server);
      socket.once('close', () => cap.release(peer));
    }
    for (const listener of accept) listener.call(server, socket);
  });
}

/** Through a trusted proxy: count requests in progress per forwarded client, until each response is done. */
function capRequests(config: Config, cap: ClientCap, clients: ClientAddressing, handler: http.RequestListener): http.RequestListener {
  return (req, res) => {
    if (!clients.viaProxy(peerAddress(req.socket.remoteAddress))) return handler(req, res);
    const client = clients.clientOf(req);
    if (!cap.take(client)) {
      // the proxy's connection carries others' requests too: keep it, unless this body is still coming
      const { status, headers, body } = rawAnswer(config, tooManyConnections(cap.max));
      res.writeHead(status, req.complete ? headers : { ...headers, Connection: 'close' }).end(body);
      return;
    }
    res.once('close', () => cap.release(client));
    handler(req, res);
  };
}

/** A connection over its address's cap: answered 429 at once (plain HTTP; a TLS one is just closed) and closed. */
function refuseConnection(config: Config, socket: Socket, tls: boolean): void {
  socket.on('error', () => {});
  if (tls) return void socket.destroy();
  // read and drop what the client sends, so closing does not reset the connection before it
  // reads the answer; a second is all a refused connection keeps its descriptor
  socket.resume();
  writeRaw(socket, rawAnswer(config, tooManyConnections(config.clientMaxConnections)), 1000);
}

/** What each refusal of Node's parser means for the client (llhttp error codes). */
export function clientErrorFor(err: NodeJS.ErrnoException & { reason?: string }): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return headersTooLarge();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return requestTimeout('The request (headers and body) was not received in time');
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
      return badRequest('The request has conflicting or invalid Content-Length / Transfer-Encoding headers');
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return badRequest('The request body has an invalid chunked transfer encoding');
    default:
      return badRequest(`The request is not valid HTTP/1.1${err.reason ? ` (${err.reason.replace(/[^\x20-\x7e]/g, '').slice(0, 100)})` : ''}`);
  }
}

/**
 * Answer a request Node's parser refused with an envelope, then close the connection
 * (its framing can no longer be trusted). A socket already answering, or already gone,
 * is simply closed: there is no one to tell.
 */
function answerClientError(config: Config, err: NodeJS.ErrnoException, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  writeRaw(socket, rawAnswer(config, clientErrorFor(err)), 5000);
}

/** An envelope for the server's own refusals, written before (or instead of) the pipeline. */
function rawAnswer(config: Config, error: ApiError): { status: number; headers: Record<string, string>; body: string } {
  const body = JSON.stringify(failure(config, error));
  const headers = {
    ...error.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': crypto.randomUUID(),
    'Access-Control-Allow-Origin': '*',
  };
  return { status: error.status, headers, body };
}

/** Write an answer straight to a socket that has no response object, and close it. */
function writeRaw(socket: Duplex, { status, headers, body }: ReturnType<typeof rawAnswer>, keepMs: number): void {
  const lines = Object.entries({ ...headers, Connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`);
  // a client that never reads its answer does not keep the socket
  setTimeout(() => socket.destroy(), keepMs).unref();
}
