import dgram from 'node:dgram';
import dnsPacket, { type Answer, type DecodedPacket, type OptAnswer, type Packet } from 'dns-packet';
import { parse as parseYaml } from 'yaml';
import { DNS_UPSTREAM, fixtureBook, type FixtureServer } from './fixture-book.js';

/**
 * The harness's DNS server (UDP, what DNS_SERVERS points resolvers at). A fixture
 * `{ upstream: dns, path: <name>, json | file }` holds the name's zone: record type →
 * list of record data as dns-packet writes it (A/AAAA/CNAME/NS/PTR: a string;
 * MX: {preference, exchange}; TXT: a string or a list of strings; SOA, SRV, CAA:
 * their objects), optionally `rcode` (e.g. SERVFAIL) to answer that code instead.
 * `file` may be YAML or JSON. A listed name without records of the asked type
 * answers no data; a name no fixture lists answers NXDOMAIN, the DNS's own "does
 * not exist", so that is not an unmatched request. Answers too large for one UDP
 * reply are not served (TCP is not offered): the example fails instead.
 */
const TTL = 300;
/** What a UDP reply may hold unless the query's EDNS record allows more; larger answers would need TCP. */
const UDP_LIMIT = 512;
const RCODES: Record<string, number> = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };

type Zone = { rcode?: string } & Record<string, unknown>;

export async function startFixtureDns(): Promise<FixtureServer> {
  const book = fixtureBook(DNS_UPSTREAM);
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, peer) => {
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      book.miss('(a query that is not a DNS packet)');
      return;
    }
    socket.send(reply(query, book), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));

  return {
    address: `127.0.0.1:${socket.address().port}`,
    use: book.use,
    hits: book.hits,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function reply(query: DecodedPacket, book: ReturnType<typeof fixtureBook>): Buffer {
  const response = (rcode: string, answers: Answer[] = [], flags = 0): Buffer =>
    dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | flags | RCODES[rcode],
      questions: query.questions,
      answers,
    } satisfies Packet);
  const question = query.questions?.[0];
  if (!question) return response('FORMERR');
  const fixture = book.find(question.name);
  if (!fixture) return response('NXDOMAIN');
  const asked = `${question.name} ${question.type}`;

  let zone: Zone;
  try {
    zone = readZone(book.body(fixture));
  } catch (err) {
    book.miss(`${asked}: bad fixture (${(err as Error).message})`);
    return response('SERVFAIL');
  }
  if (zone.rcode) return response(zone.rcode);
  const data = (zone[question.type] ?? []) as unknown[];
  const answers = data.map((d) => ({ type: question.type, class: 'IN', name: question.name, ttl: TTL, data: d }) as Answer);
  let packet: Buffer;
  try {
    packet = response('NOERROR', answers);
  } catch (err) {
    book.miss(`${asked}: records dns-packet cannot write (${(err as Error).message})`);
    return response('SERVFAIL');
  }
  const edns = query.additionals?.find((a): a is OptAnswer => a.type === 'OPT');
  if (packet.length <= Math.max(UDP_LIMIT, edns?.udpPayloadSize ?? 0)) return packet;
  book.miss(`${asked}: an answer of ${packet.length} bytes does not fit in a UDP reply`);
  return response('NOERROR', [], dnsPacket.TRUNCATED_RESPONSE);
}

/** A fixture's zone, checked: record types in capitals, each with a list; `rcode` a known code. */
function readZone(body: { file: Buffer } | { json: unknown }): Zone {
  const zone = 'file' in body ? parseYaml(body.file.toString('utf8')) : body.json;
  if (!zone || typeof zone !== 'object' || Array.isArray(zone)) throw new Error('a zone is an object of record type → records');
  for (const [key, value] of Object.entries(zone)) {
    if (key === 'rcode') {
      if (typeof value !== 'string' || !(value in RCODES)) throw new Error(`rcode ${value} is not one of ${Object.keys(RCODES).join(', ')}`);
    } else if (!/^[A-Z0-9]+$/.test(key) || !Array.isArray(value)) throw new Error(`${key} is not a record type with a list of records`);
  }
  return zone as Zone;
}
