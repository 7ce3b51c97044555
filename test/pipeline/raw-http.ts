import net from 'node:net';

/** What a raw-socket client saw: the answer's status and JSON body, and how many body bytes it got out before the answer or the close. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  json: any;
  raw: string;
  /** Body bytes the kernel accepted before the first byte of the answer arrived or the connection closed. */
  sentBeforeAnswer: number;
}

/**
 * Speak HTTP/1.1 over a plain socket, so a test can send what fetch refuses to
 * (two Content-Lengths, a bad request line, a 20 KB query) and measure how much of a
 * large body the server let through before answering. `body` is sent after `head`:
 * a Buffer, or { size } bytes generated in 64 KB chunks; `delayMs` spaces chunks.
 */
export function rawRequest(url: string, head: string, body?: Buffer | { size: number; chunk?: number; delayMs?: number }): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let sent = 0;
    let sentBeforeAnswer: number | undefined;
    let done = false;
    socket.on('data', (d: Buffer) => {
      sentBeforeAnswer ??= sent;
      received.push(d);
    });
    socket.on('error', () => {}); // EPIPE/ECONNRESET once the server closes: the answer is what counts
    socket.on('close', () => {
      done = true;
      sentBeforeAnswer ??= sent;
      const raw = Buffer.concat(received).toString('latin1');
      const [top, ...rest] = raw.split('\r\n\r\n');
      const lines = (top ?? '').split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      const text = Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({ status, headers, json, raw, sentBeforeAnswer });
    });
    socket.once('connect', () => {
      socket.write(head);
      if (body === undefined) return;
      if (Buffer.isBuffer(body)) return void socket.write(body, () => (sent += body.length));
      const chunkSize = body.chunk ?? 64 * 1024;
      const chunk = Buffer.alloc(chunkSize, 0x61);
      let queued = 0;
      const pump = () => {
        while (!done && queued < body.size && sentBeforeAnswer === undefined) {
          const n = Math.min(chunkSize, body.size - queued);
          queued += n;
          const ok = socket.write(n === chunkSize ? chunk : chunk.subarray(0, n), (err) => !err && (sent += n));
          if (body.delayMs) return void setTimeout(pump, body.delayMs);
          if (!ok) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    socket.setTimeout(60_000, () => reject(new Error('no answer within 60 s')));
  });
}

/** A multipart upload endpoint at /api/test/upload (the upload adapter), for tests of body handling. */
export const UPLOAD_MANIFEST = `
path: /api/test/upload
method: POST
body: [multipart]
category: tools
summary: Host a file
params:
  file: { in: file, required: true, schema: { type: string, format: binary }, description: the file }
adapter: { kind: upload, config: { field: file } }
examples: [{ params: {}, expect: {} }]
`;
