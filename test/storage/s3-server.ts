import http from 'node:http';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { tempDataDir } from '../support/serve.js';

/**
 * A real S3-compatible server for the storage tests: s3rver (signatures checked,
 * data on disk in a temp directory) on a random loopback port, behind a small
 * pass-through proxy that records every request (method, path+query, headers, body size)
 * and can be told to fail some of them, to see what the SDK really sent.
 */
export const BUCKET = 'manifold-test';
/** s3rver's built-in account. */
export const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface Recorded {
  method: string;
  url: string;
  bodyBytes: number;
  headers: http.IncomingHttpHeaders;
}

export interface LocalS3 {
  /** The proxy's address: use it as S3_ENDPOINT. */
  endpoint: string;
  /** Environment selecting the S3 backend against this server. */
  env: Record<string, string>;
  requests: Recorded[];
  /** Answer 500 (without forwarding) to every request this matches, until set back to undefined. */
  failWhen?: (request: Recorded) => boolean;
  close(): Promise<void>;
}

export async function startLocalS3(): Promise<LocalS3> {
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: tempDataDir('manifold-s3rver-'), configureBuckets: [{ name: BUCKET }] });
  const { port: s3Port } = (await server.run()) as AddressInfo;
  const local: LocalS3 = {
    endpoint: '',
    env: {},
    requests: [],
    async close() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await server.close();
    },
  };
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seen: Recorded = { method: req.method!, url: req.url!, bodyBytes: body.length, headers: req.headers };
      local.requests.push(seen);
      if (local.failWhen?.(seen)) {
        res.writeHead(500, { 'content-type': 'application/xml' }).end('<Error><Code>InternalError</Code><Message>injected by the test</Message></Error>');
        return;
      }
      const upstream = http.request({ host: '127.0.0.1', port: s3Port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  local.endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  local.env = { S3_BUCKET: BUCKET, S3_ENDPOINT: local.endpoint, ...CREDENTIALS };
  return local;
}
