import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket, type OptAnswer } from 'dns-packet';

/**
 * A small authoritative DNS server for tests, on UDP and TCP at the same port:
 * - example.test: A, MX, NS and TXT, each type with its own TTL (no AAAA, no CNAME);
 * - alias.test: a CNAME (TTL 60) to example.test, whose records an A question also gets;
 * - big.test: TXT records too large for a UDP reply, so UDP answers truncated and TCP whole;
 * - old.test: an A record, but FORMERR to a query that carries EDNS (a pre-EDNS server);
 * - broken.test: SERVFAIL; slow.test: no answer at all; any other name: NXDOMAIN.
 * `refuseAll` makes it answer REFUSED to everything (a resolver that won't serve us).
 */
const A = (name: string, ttl: number, data: string): Answer => ({ type: 'A', class: 'IN', name, ttl, data });
const ZONE: Record<string, Answer[]> = {
  'example.test': [
    A('example.test', 3600, '192.0.2.10'),
    { type: 'MX', class: 'IN', name: 'example.test', ttl: 1800, data: { preference: 20, exchange: 'backup.example.test' } },
    { type: 'MX', class: 'IN', name: 'example.test', ttl: 1800, data: { preference: 10, exchange: 'mail.example.test' } },
    { type: 'NS', class: 'IN', name: 'example.test', ttl: 86400, data: 'ns1.example.test' },
    { type: 'TXT', class: 'IN', name: 'example.test', ttl: 300, data: ['v=spf1 ', '-all'] },
  ],
  'alias.test': [{ type: 'CNAME', class: 'IN', name: 'alias.test', ttl: 60, data: 'example.test' }],
  'big.test': Array.from({ length: 8 }, (_, i) => ({ type: 'TXT', class: 'IN', name: 'big.test', ttl: 120, data: `${i}`.repeat(250) }) as Answer),
  'old.test': [A('old.test', 600, '192.0.2.20')],
};

export interface TestDnsServer {
  /** host:port, as DNS_SERVERS takes it. */
  address: string;
  /** Questions received, as `udp|tcp name TYPE` lines. */
  asked: string[];
  close(): void;
}

export async function startDnsServer(options: { refuseAll?: boolean } = {}): Promise<TestDnsServer> {
  const asked: string[] = [];
  const answer = (query: DecodedPacket, transport: 'udp' | 'tcp'): Buffer | undefined => {
    const question = query.questions![0];
    const name = question.name.toLowerCase();
    asked.push(`${transport} ${name} ${question.type}`);
    const edns = query.additionals?.find((a): a is OptAnswer => a.type === 'OPT');
    const reply = (rcode: number, answers: Answer[] = [], flags = 0) =>
      dnsPacket.encode({ type: 'response', id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER | flags | rcode, questions: query.questions, answers });
    if (name === 'slow.test') return undefined;
    if (options.refuseAll) return reply(5);
    if (name === 'broken.test') return reply(2);
    if (name === 'old.test' && edns) return reply(1);
    const records = ZONE[name];
    if (!records) return reply(3);
    let answers = records.filter((r) => r.type === question.type);
    const alias = records.find((r): r is Answer & { type: 'CNAME'; data: string } => r.type === 'CNAME');
    if (alias && question.type !== 'CNAME') answers = [alias, ...ZONE[alias.data].filter((r) => r.type === question.type)];
    const whole = reply(0, answers);
    return transport === 'tcp' || whole.length <= Math.max(512, edns?.udpPayloadSize ?? 0) ? whole : reply(0, [], dnsPacket.TRUNCATED_RESPONSE);
  };

  const tcp = net.createServer((socket) => {
    let received = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      const reply = answer(dnsPacket.decode(received.subarray(2, 2 + received.readUInt16BE(0))), 'tcp');
      if (reply) socket.end(Buffer.concat([Buffer.from([reply.length >> 8, reply.length & 255]), reply]));
    });
  });
  // the UDP port the system picks may be taken for TCP: pick again
  for (let attempt = 1; ; attempt++) {
    const udp = dgram.createSocket('udp4');
    udp.on('message', (query, peer) => {
      const reply = answer(dnsPacket.decode(query), 'udp');
      if (reply) udp.send(reply, peer.port, peer.address);
    });
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const port = udp.address().port;
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject).listen(port, '127.0.0.1', () => {
          tcp.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      udp.close();
      if (attempt === 5) throw err;
      continue;
    }
    return {
      address: `127.0.0.1:${port}`,
      asked,
      close: () => {
        udp.close();
        tcp.close();
      },
    };
  }
}
