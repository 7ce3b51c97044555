import crypto from 'node:crypto';
import http from 'node:http';

/**
 * Send a multipart upload of `size` random bytes without ever holding them:
 * the body is generated chunk by chunk (so a 150 MB test costs no memory) and its
 * SHA-256 computed on the way. Resolves with the status, parsed JSON and the hash.
 */
export async function streamUpload(url: string, fields: Record<string, string>, size: number): Promise<{ status: number; json: any; sha256: string }> {
  const boundary = `----manifold${crypto.randomBytes(8).toString('hex')}`;
  const hash = crypto.createHash('sha256');
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'), sha256: hash.digest('hex') }),
        );
      },
    );
    // the server may answer 413 and close before the body is sent: that is a result, not a failure
    req.on('error', (err) =>
      (err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err),
    );
    for (const [name, value] of Object.entries(fields)) req.write(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const chunk = crypto.randomBytes(Math.min(1 << 20, size - sent));
        hash.update(chunk);
        sent += chunk.length;
        if (req.destroyed) return;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}
