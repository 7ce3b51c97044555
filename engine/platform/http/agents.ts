import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Connection pools. Operator-configured upstreams share one keep-alive pair;
 * user-supplied URLs get their own pair whose every socket resolves through the
 * SSRF guard's `lookup`. The pools must stay separate: an agent reuses idle
 * sockets by host:port alone, so a pooled socket to an operator's localhost
 * upstream must never serve a user URL naming the same host.
 */

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

const POOL = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64 };

export function upstreamAgents(): Agents {
  return { http: new http.Agent(POOL), https: new https.Agent(POOL) };
}

type CreateConnection = (options: object, callback?: (error: Error | null, socket: Duplex) => void) => Duplex;

/**
 * The lookup is forced in `createConnection`, below every request option, so no
 * caller (got's `dnsLookup` included) can route a socket of these agents around it.
 */
function forceLookup<A extends http.Agent>(agent: A, lookup: LookupFunction): A {
  const create = (agent as unknown as { createConnection: CreateConnection }).createConnection.bind(agent);
  (agent as unknown as { createConnection: CreateConnection }).createConnection = (options, callback) => create({ ...options, lookup }, callback);
  return agent;
}

export function guardedAgents(lookup: LookupFunction): Agents {
  return {
    http: forceLookup(new http.Agent(POOL), lookup),
    https: forceLookup(new https.Agent(POOL), lookup),
  };
}
