import { getServers } from 'node:dns';
import net from 'node:net';
import type { DecodedPacket, RecordType } from 'dns-packet';
import type { UpstreamRegistry } from '../../catalog/upstreams.js';
import { DnsError, exchange, type DnsServer } from './dns-exchange.js';

/**
 * DNS lookups through the `dns` upstream (endpoints/upstreams/dns.yaml): its resolvers
 * (DNS_SERVERS, a comma list of host[:port]; unset = the system's, as Node read them
 * from /etc/resolv.conf) and its budget per question (timeoutMs, every server and the
 * TCP retry included), so a dead resolver fails fast.
 *
 * Questions go out on the wire (./dns-exchange.ts, packets by dns-packet) rather than
 * through Node's dns.Resolver, which reports a TTL only for A and AAAA records: here
 * every record comes with its own.
 */

/** One record of the asked type: its TTL in seconds and its data as dns-packet reads it. */
export interface DnsRecord<D = unknown> {
  ttl: number;
  data: D;
}

/** Record data by type, as dns-packet decodes it. */
export interface DnsData {
  A: string;
  AAAA: string;
  CNAME: string;
  NS: string;
  MX: { preference: number; exchange: string };
  /** The record's character-strings, each as its bytes. */
  TXT: Buffer[];
}

export type DnsType = keyof DnsData;

/** Answers that settle the question, so no other server is asked: "no such name" and "no such record". */
const FINAL = new Set(['ENOTFOUND', 'ENODATA']);

/** Response codes that make the next server be asked, as Node's dns error codes. */
const RCODE_ERRORS: Record<string, string> = { FORMERR: 'EFORMERR', SERVFAIL: 'ESERVFAIL', NOTIMP: 'ENOTIMP', REFUSED: 'EREFUSED' };

export class DnsResolver {
  constructor(
    readonly servers: DnsServer[],
    readonly timeoutMs: number,
  ) {}

  /**
   * The name's records of one type, in the order the server gave them. Throws a DnsError:
   * ENOTFOUND (no such name), ENODATA (no record of that type), or why no server answered
   * (ETIMEOUT, ECONNREFUSED, ESERVFAIL, EREFUSED…, from the last server asked).
   */
  async resolve<T extends DnsType>(name: string, type: T, signal?: AbortSignal): Promise<DnsRecord<DnsData[T]>[]> {
    const deadline = Date.now() + this.timeoutMs;
    let failure: DnsError | undefined;
    for (const [i, server] of this.servers.entries()) {
      // each server left gets an equal share of the remaining budget: a silent first one leaves time for the next
      const share = Math.max(0, deadline - Date.now()) / (this.servers.length - i);
      try {
        return recordsOf(await this.ask(server, name, type, Date.now() + share, signal), name, type) as DnsRecord<DnsData[T]>[];
      } catch (err) {
        if (!(err instanceof DnsError) || FINAL.has(err.code)) throw err;
        failure = err;
      }
    }
    throw failure ?? new DnsError('ECONNREFUSED', 'No DNS server to ask');
  }

  /** One server's answer; NXDOMAIN and the failing rcodes thrown as DnsErrors. */
  private async ask(server: DnsServer, name: string, type: RecordType, deadline: number, signal?: AbortSignal): Promise<DecodedPacket> {
    let packet = await exchange(server, { name, type, edns: true, deadline, signal });
    // a server too old for EDNS(0) answers FORMERR to its OPT record: ask it once more without one (RFC 6891 §7)
    if (rcodeOf(packet) === 'FORMERR') packet = await exchange(server, { name, type, edns: false, deadline, signal });
    const rcode = rcodeOf(packet);
    if (rcode === 'NXDOMAIN') throw new DnsError('ENOTFOUND', `${name} does not exist`);
    if (rcode !== 'NOERROR') throw new DnsError(RCODE_ERRORS[rcode] ?? 'EBADRESP', `DNS server ${server.host}:${server.port} answered ${rcode}`);
    return packet;
  }
}

// dns-packet decodes the rcode; its type declarations leave it out
const rcodeOf = (packet: DecodedPacket) => (packet as DecodedPacket & { rcode: string }).rcode;

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * The answer's records of the asked type for the asked name, or for the names its CNAME
 * chain leads to (a recursive resolver sends the chain along): such a record lives no
 * longer than the aliases that lead to it, so its TTL is capped by theirs, as Node's
 * resolver does for addresses.
 */
function recordsOf(packet: DecodedPacket, name: string, type: RecordType): DnsRecord[] {
  const answers = (packet.answers ?? []).flatMap((a) =>
    a.type !== 'OPT' && a.class === 'IN' ? [{ type: a.type, name: bare(a.name), ttl: a.ttl ?? 0, data: a.data as unknown }] : [],
  );
  const names = new Set([bare(name)]);
  let cap = Infinity;
  for (let grew = type !== 'CNAME'; grew;) {
    grew = false;
    for (const a of answers) {
      const target = typeof a.data === 'string' ? bare(a.data) : '';
      if (a.type === 'CNAME' && names.has(a.name) && target && !names.has(target)) {
        names.add(target);
        cap = Math.min(cap, a.ttl);
        grew = true;
      }
    }
  }
  const records = answers.filter((a) => a.type === type && names.has(a.name)).map((a) => ({ ttl: Math.min(a.ttl, cap), data: a.data }));
  if (records.length === 0) throw new DnsError('ENODATA', `${name} has no ${type} record`);
  return records;
}

/**
 * A resolver as DNS_SERVERS and /etc/resolv.conf write it: `1.2.3.4`, `1.2.3.4:5353`,
 * `::1`, `[::1]:5353`. Only IP addresses: a resolver's own name would need a resolver.
 */
export function parseServer(text: string): DnsServer {
  const s = text.trim();
  const [, host, port = '53'] = /^\[([^\]]+)\](?::(\d+))?$/.exec(s) ?? (net.isIPv6(s) ? [s, s] : (/^([^:]+)(?::(\d+))?$/.exec(s) ?? []));
  if (!host || !net.isIP(host) || !(Number(port) >= 1 && Number(port) <= 65535))
    throw new Error(`DNS resolver "${s}" is not an IP address with an optional :port`);
  return { host, port: Number(port) };
}

export function resolverFor(upstreams: UpstreamRegistry): DnsResolver {
  const { servers, timeoutMs } = upstreams.servers('dns');
  // unset: the resolvers Node read from /etc/resolv.conf at start (127.0.0.1 when it lists none)
  const list = servers.resolvers ? servers.resolvers.split(',').filter((s) => s.trim()) : getServers();
  return new DnsResolver(list.map(parseServer), timeoutMs);
}

/** DNS answers that mean "no such record", as opposed to "could not ask". */
export const isNoData = (code: string | undefined) => code === 'ENODATA' || code === 'ENOTFOUND';
