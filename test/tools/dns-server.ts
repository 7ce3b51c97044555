import dgram from 'node:dgram';

/**
 * A tiny authoritative DNS server on UDP for tests: example.test has A, MX, NS and
 * TXT records (other types: no data), missing.test does not exist (NXDOMAIN), and
 * slow.test never gets an answer (to exercise timeouts).
 */
const name = (host: string) => Buffer.concat([...host.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])]);
const u16 = (n: number) => Buffer.from([n >> 8, n & 255]);

/** An answer for the question name (compression pointer 0xc00c), TTL 3600. */
const answer = (type: number, rdata: Buffer) =>
  Buffer.concat([Buffer.from([0xc0, 0x0c]), u16(type), u16(1), Buffer.from([0, 0, 0x0e, 0x10]), u16(rdata.length), rdata]);

const RECORDS: Record<number, Buffer[]> = {
  1: [answer(1, Buffer.from([192, 0, 2, 10]))],
  2: [answer(2, name('ns1.example.test'))],
  15: [answer(15, Buffer.concat([u16(20), name('backup.example.test')])), answer(15, Buffer.concat([u16(10), name('mail.example.test')]))],
  16: [answer(16, Buffer.concat([Buffer.from([11]), Buffer.from('v=spf1 -all')]))],
};

export async function startDnsServer(): Promise<{ address: string; close(): void }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => {
    let offset = 12;
    const labels: string[] = [];
    while (query[offset] !== 0) {
      labels.push(query.toString('ascii', offset + 1, offset + 1 + query[offset]));
      offset += query[offset] + 1;
    }
    const qtype = query.readUInt16BE(offset + 1);
    const host = labels.join('.');
    if (host === 'slow.test') return;
    const exists = host === 'example.test';
    const answers = exists ? (RECORDS[qtype] ?? []) : [];
    const header = Buffer.concat([query.subarray(0, 2), Buffer.from([0x84, exists ? 0x00 : 0x03]), u16(1), u16(answers.length), u16(0), u16(0)]);
    socket.send(Buffer.concat([header, query.subarray(12, offset + 5), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, close: () => socket.close() };
}
