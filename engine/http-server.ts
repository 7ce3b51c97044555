import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { Config } from './config.js';
import { failure } from './envelope.js';
import { badRequest, headersTooLarge, requestTimeout, type ApiError } from './errors.js';

/**
 * The listening server, with the limits that protect it before a request reaches the
 * engine: HEADERS_TIMEOUT_MS for the request line and headers, REQUEST_TIMEOUT_MS for
 * the whole request (headers and body — never the answer, so long downloads keep
 * streaming), and an envelope instead of Node's bare status line for whatever Node's
 * HTTP parser refuses (`clientError`). HTTPS with HSTS when TLS_CERT_FILE and
 * TLS_KEY_FILE are set. `npm start` (main.ts) and the tests build the server here.
 */
export type HttpServer = http.Server | https.Server;

/** How often Node checks the header and request timeouts (its default, 30 s, would let a timeout run 30 s late). */
const TIMEOUT_CHECK_MS = 1000;

export function createHttpServer(config: Config, handler: http.RequestListener): HttpServer {
  const options: http.ServerOptions = {
    // Node refuses a headers timeout longer than the whole request's (0 turns either off)
    headersTimeout: config.requestTimeoutMs ? Math.min(config.headersTimeoutMs, config.requestTimeoutMs) : config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    keepAliveTimeout: 65_000,
  };
  const server =
    config.tlsCertFile && config.tlsKeyFile
      ? https.createServer({ ...options, cert: fs.readFileSync(config.tlsCertFile), key: fs.readFileSync(config.tlsKeyFile) }, (req, res) => {
          res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
          handler(req, res);
        })
      : http.createServer(options, handler);
  // A client that sends `Expect: 100-continue` (curl does for bodies over 1 MB) waits for
  // the go-ahead: the pipeline gives it (writeContinue) only once the body is wanted.
  server.on('checkContinue', handler);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(config, err, socket));
  return server;
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
  const error = clientErrorFor(err);
  const body = JSON.stringify(failure(config, error));
  socket.end(
    `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${crypto.randomUUID()}\r\n` +
      'Access-Control-Allow-Origin: *\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
  // a client that never reads its answer does not keep the socket
  setTimeout(() => socket.destroy(), 5000).unref();
}
