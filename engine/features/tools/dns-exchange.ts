import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket, { type DecodedPacket, type Packet, type RecordType } from 'dns-packet';

/**
 * One DNS question to one server and its answer, on the wire (RFC 1035 §4.2): over UDP,
 * and again over TCP when the UDP answer comes back truncated (RFC 7766). dns-packet
 * writes and reads the packets; this file only moves them. Failures carry the codes
 * Node's dns module uses (ETIMEOUT, ECONNREFUSED, EBADRESP…), which callers and
 * clients already know.
 */

/** A resolver's address: an IP and a port. */
export interface DnsServer {
  host: string;
  port: number;
}

/** A failed exchange or a failing answer, with Node's dns error code (`ENOTFOUND`, `ETIMEOUT`…). */
export class DnsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** EDNS(0) payload size advertised to the server (the DNS Flag Day 2020 value): most answers then fit in one datagram. */
const EDNS_PAYLOAD = 1232;

export interface Exchange {
  name: string;
  type: RecordType;
  /** Send an EDNS(0) OPT record (off to retry a server that answers FORMERR to it). */
  edns: boolean;
  /** Epoch ms by which the answer must be in, UDP and TCP together. */
  deadline: number;
  signal?: AbortSignal;
}

/** Ask server one question; the decoded answer, whatever its rcode (the caller decides what it means). */
export async function exchange(server: DnsServer, ask: Exchange): Promise<DecodedPacket> {
  const query: Packet = {
    type: 'query',
    id: randomInt(0x10000),
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: ask.type, class: 'IN', name: ask.name }],
    additionals: ask.edns
      ? [{ type: 'OPT', name: '.', udpPayloadSize: EDNS_PAYLOAD, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }]
      : [],
  };
  const udpAnswer = await overUdp(server, query, ask);
  return udpAnswer.flag_tc ? overTcp(server, query, ask) : udpAnswer;
}

/** An answer to this query: same id, a response, the same question (a stray or spoofed datagram is none). */
function answers(query: Packet, packet: DecodedPacket): boolean {
  const [asked] = query.questions!;
  const question = packet.questions?.[0];
  return packet.id === query.id && packet.type === 'response' && question?.type === asked.type && question.name.toLowerCase() === asked.name.toLowerCase();
}

/**
 * Run one socket's exchange until it settles: the deadline and the caller's signal end
 * it, and `close` runs exactly once whichever way it ends.
 */
function settle<T>(server: DnsServer, ask: Exchange, close: () => void, run: (done: (err: Error | undefined, value?: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onAbort = () => done(ask.signal!.reason as Error);
    const ms = Math.max(0, ask.deadline - Date.now());
    const timer = setTimeout(() => done(new DnsError('ETIMEOUT', `DNS server ${server.host}:${server.port} did not answer within ${ms} ms`)), ms);
    function done(err: Error | undefined, value?: T) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ask.signal?.removeEventListener('abort', onAbort);
      close();
      if (err) reject(err);
      else resolve(value as T);
    }
    if (ask.signal?.aborted) return done(ask.signal.reason as Error);
    ask.signal?.addEventListener('abort', onAbort, { once: true });
    run(done);
  });
}

/** A socket error (refused, unreachable, reset…): ECONNREFUSED, as Node's dns module says "could not contact the server". */
const socketError = (server: DnsServer, err: NodeJS.ErrnoException) =>
  new DnsError('ECONNREFUSED', `DNS server ${server.host}:${server.port}: ${err.code ?? err.message}`);

function overUdp(server: DnsServer, query: Packet, ask: Exchange): Promise<DecodedPacket> {
  const socket = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
  return settle<DecodedPacket>(
    server,
    ask,
    () => socket.close(),
    (done) => {
      socket.on('error', (err) => done(socketError(server, err)));
      socket.on('message', (message) => {
        let packet: DecodedPacket;
        try {
          packet = dnsPacket.decode(message);
        } catch {
          return done(new DnsError('EBADRESP', `DNS server ${server.host}:${server.port} sent a malformed answer`));
        }
        if (answers(query, packet)) done(undefined, packet);
      });
      // a connected socket hears only this server, and learns of a closed port (ICMP) as ECONNREFUSED instead of waiting out the deadline
      socket.connect(server.port, server.host, () => socket.send(dnsPacket.encode(query)));
    },
  );
}

function overTcp(server: DnsServer, query: Packet, ask: Exchange): Promise<DecodedPacket> {
  const socket = net.connect({ host: server.host, port: server.port });
  return settle<DecodedPacket>(
    server,
    ask,
    () => socket.destroy(),
    (done) => {
      let received = Buffer.alloc(0);
      const malformed = () => done(new DnsError('EBADRESP', `DNS server ${server.host}:${server.port} sent a malformed answer over TCP`));
      socket.on('error', (err) => done(socketError(server, err)));
      socket.on('connect', () => socket.write(dnsPacket.streamEncode(query)));
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        // a two-byte length, then the message: at most 64 KiB is ever held
        if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
        let packet: DecodedPacket;
        try {
          packet = dnsPacket.decode(received.subarray(2, 2 + received.readUInt16BE(0)));
        } catch {
          return malformed();
        }
        if (answers(query, packet)) done(undefined, packet);
        else malformed();
      });
      socket.on('end', malformed);
    },
  );
}
