import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { unsupportedUrl, upstreamError } from '../../core/errors.js';
import { canonicalIp, isIpLiteral, nonPublicReason, stripBrackets } from './address-policy.js';

/**
 * The one SSRF guard for user-supplied URLs. `checkUrl` refuses a URL before any
 * request is made; `lookup` is given to the sockets of the user-URL agents, so the
 * address a connection goes to is the address that was just resolved and checked:
 * a DNS answer that changes between the check and the connect (rebinding) is
 * checked again rather than trusted. Node skips `lookup` for IP-literal hosts, so
 * callers must run `checkUrl` on the first URL and on every redirect target.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardOptions {
  /** ALLOW_PRIVATE_URLS=1: lift the address checks (tests only). The scheme check stays. */
  allowPrivate: boolean;
  /** Defaults to the system resolver (getaddrinfo, as sockets use). */
  resolver?: Resolver;
  /** Why an address is refused, or undefined to allow it. Defaults to `nonPublicReason`. */
  addressProblem?: (ip: string) => string | undefined;
}

export interface CheckedUrl {
  url: URL;
  /** Every address the host resolved to; all of them passed the policy. */
  addresses: ResolvedAddress[];
}

export interface SsrfGuard {
  /** Refuse a URL (400 `unsupported_url` naming `param`, default `url`) or return it parsed and resolved. */
  checkUrl(url: string | URL, param?: string): Promise<CheckedUrl>;
  /** A `net`/`http.Agent` `lookup` that resolves and fails with `AddressRefused` for a refused host. */
  lookup: LookupFunction;
}

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:']);

/** DNS failures that mean "this host does not exist", which is the caller's mistake, not an outage. */
const NO_SUCH_HOST = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME']);

/**
 * What the guard's `lookup` fails a connection with. It carries no param name (a
 * socket does not know which param its URL came from); the HTTP client turns it
 * into 400 `unsupported_url` for the param it is fetching.
 */
export class AddressRefused extends Error {
  constructor(readonly why: string) {
    super(`refused: ${why}`);
    this.name = 'AddressRefused';
  }
}

export function createSsrfGuard(options: GuardOptions): SsrfGuard {
  const resolver = options.resolver ?? systemResolver;
  const addressProblem = options.addressProblem ?? nonPublicReason;

  /** Resolve a URL hostname; resolver errors propagate as they are. */
  const resolve = async (host: string): Promise<ResolvedAddress[]> => (isIpLiteral(host) ? [canonicalIp(host)] : resolver(host));

  /** Why `host` with these addresses is refused, or undefined. */
  function refusal(host: string, addresses: ResolvedAddress[]): string | undefined {
    if (options.allowPrivate) return undefined;
    if (addresses.length === 0) return 'host not found';
    // An attacker's DNS may answer with one public and one private address: any bad one refuses the host.
    for (const { address } of addresses) {
      const problem = addressProblem(address);
      if (problem) return isIpLiteral(host) ? `${problem} address` : `host resolves to a ${problem} address`;
    }
    return undefined;
  }

  async function checkUrl(input: string | URL, param = 'url'): Promise<CheckedUrl> {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw unsupportedUrl(param, 'not a valid absolute URL');
    }
    if (!ALLOWED_PROTOCOLS.has(url.protocol)) throw unsupportedUrl(param, 'only http and https URLs are allowed');
    // The WHATWG parser has already turned 2130706433, 0177.0.0.1 and 0x7f.1 into 127.0.0.1.
    const host = stripBrackets(url.hostname);
    let addresses: ResolvedAddress[];
    try {
      addresses = await resolve(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NO_SUCH_HOST.has(code)) throw unsupportedUrl(param, 'host not found');
      throw upstreamError(host, `DNS lookup failed (${/^[A-Z_]+$/.test(code) ? code : 'error'})`);
    }
    const why = refusal(host, addresses);
    if (why) throw unsupportedUrl(param, why);
    return { url, addresses };
  }

  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family;
    const host = stripBrackets(hostname);
    resolve(host).then(
      (all) => {
        const why = refusal(host, all);
        const wanted = family === 4 || family === 6 ? all.filter((a) => a.family === family) : all;
        if (why) {
          callback(new AddressRefused(why), '', 0);
        } else if (wanted.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`no IPv${family} address for ${hostname}`);
          error.code = 'ENOTFOUND';
          callback(error, '', 0);
        } else if (lookupOptions.all) {
          // With `all`, net expects the array form of the callback, which LookupFunction's type omits.
          (callback as unknown as (error: null, all: ResolvedAddress[]) => void)(null, wanted);
        } else {
          callback(null, wanted[0].address, wanted[0].family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  return { checkUrl, lookup };
}

/** Check one URL with the system resolver and the default policy. */
export function checkUrl(url: string | URL, opts: { allowPrivate: boolean; param?: string }): Promise<CheckedUrl> {
  return createSsrfGuard({ allowPrivate: opts.allowPrivate }).checkUrl(url, opts.param);
}
