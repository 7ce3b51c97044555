import dgram from 'node:dgram';
import t from 'tap';
import { email } from '../../engine/tools/operations/checkers.js';

/**
 * A tiny authoritative DNS server on UDP: MX for example.test, NXDOMAIN for
 * missing.test, and silence for slow.test (to exercise the timeout).
 */
async function dnsServer() {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => {
    const id = query.subarray(0, 2);
    let offset = 12;
    const labels: string[] = [];
    while (query[offset] !== 0) {
      labels.push(query.toString('ascii', offset + 1, offset + 1 + query[offset]));
      offset += query[offset] + 1;
    }
    const question = query.subarray(12, offset + 5);
    const name = labels.join('.');
    if (name === 'slow.test') return;
    const found = name === 'example.test';
    const header = Buffer.from([0, 0, 0x84, found ? 0x00 : 0x03, 0, 1, 0, found ? 2 : 0, 0, 0, 0, 0]);
    id.copy(header, 0);
    const answers = found ? [mx(20, 'backup.example.test'), mx(10, 'mail.example.test')] : [];
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, close: () => socket.close() };
}

/** An MX answer pointing back at the question name (compression pointer 0xc00c). */
function mx(priority: number, exchange: string): Buffer {
  const target = Buffer.concat([...exchange.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])]);
  const rdata = Buffer.concat([Buffer.from([priority >> 8, priority & 255]), target]);
  const fixed = Buffer.from([0xc0, 0x0c, 0, 15, 0, 1, 0, 0, 0x0e, 0x10, rdata.length >> 8, rdata.length & 255]);
  return Buffer.concat([fixed, rdata]);
}

const dns = await dnsServer();
t.teardown(dns.close);
const check = (address: string) =>
  email({ params: { email: address, mx: true }, options: {}, call: {} as any, setup: { config: { env: { DNS_SERVERS: dns.address } } } as any }) as Promise<any>;

t.test('MX records are looked up and sorted by priority', async (t) => {
  const result = await check('ada@example.test');
  t.same(result.mx, { checked: true, found: true, records: [{ exchange: 'mail.example.test', priority: 10 }, { exchange: 'backup.example.test', priority: 20 }] });
  t.equal(result.valid, true);
});

t.test('a domain without MX makes the address invalid', async (t) => {
  const result = await check('ada@missing.test');
  t.match(result.mx, { checked: true, found: false, records: [] });
  t.equal(result.valid, false);
});

t.test('a DNS server that never answers times out as "unknown", not invalid', async (t) => {
  const result = await check('ada@slow.test');
  t.match(result.mx, { checked: false, found: null, error: 'ETIMEOUT' });
  t.equal(result.valid, true, 'syntax and disposable checks still decide');
});
